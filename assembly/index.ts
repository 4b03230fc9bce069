// Placeholder entry so the WASM build step exists from the first commit.
// The VDF engine (issue 2) replaces this with RSA-2048 Montgomery arithmetic.
export function engineVersion(): i32 {
  return 0;
}
