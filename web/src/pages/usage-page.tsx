export default function Page() {
  return <p>usage-page</p>;
}
