export default function Page() {
  return <p>marketplace-page</p>;
}
