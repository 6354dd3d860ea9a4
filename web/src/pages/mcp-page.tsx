export default function Page() {
  return <p>mcp-page</p>;
}
