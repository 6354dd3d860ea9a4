export default function Page() {
  return <p>settings-page</p>;
}
