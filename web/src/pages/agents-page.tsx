export default function Page() {
  return <p>agents-page</p>;
}
