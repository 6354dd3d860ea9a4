export default function Page() {
  return <p>toolbox-page</p>;
}
