export default function Page() {
  return <p>runs-page</p>;
}
