export default function Page() {
  return <p>skills-page</p>;
}
