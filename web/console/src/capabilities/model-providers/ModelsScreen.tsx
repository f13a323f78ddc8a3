/** Placeholder: being built (issue #33). */
export default function ModelsScreen() {
  return <h1>ModelsScreen</h1>;
}
