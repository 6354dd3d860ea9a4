export default function Page() {
  return <p>policy-page</p>;
}
