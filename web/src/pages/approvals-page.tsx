export default function Page() {
  return <p>approvals-page</p>;
}
