/** Placeholder while issue 17 is being built (replaced in this session). */
export default function Page() {
  return null;
}
