/** Changes at every sign-out (forget-on-sign-out.ts): a pick planned across one must not start. */
let generation = 0;

export function signInGeneration(): number {
  return generation;
}

export function nextSignInGeneration(): void {
  generation++;
}
