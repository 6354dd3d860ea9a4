export default function Page() {
  return <p>product-page</p>;
}
