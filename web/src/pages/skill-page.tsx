export default function Page() {
  return <p>skill-page</p>;
}
