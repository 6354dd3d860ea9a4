export default function Page() {
  return <p>run-page</p>;
}
