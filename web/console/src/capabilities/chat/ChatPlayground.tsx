/** Placeholder: being built (issue #33). */
export default function ChatPlayground() {
  return <h1>ChatPlayground</h1>;
}
