/**
 * The page's CSP requires Trusted Types for every HTML sink. React never writes HTML from a string
 * here, but React Aria's live announcer empties its region with `innerHTML = ''` (NumberField,
 * on blur): the default policy lets exactly that through and refuses any other string, so no
 * markup can reach a sink, by mistake or by injection.
 */
type Policy = { createHTML(input: string): string };
type TrustedTypes = { createPolicy(name: string, rules: Policy): unknown };

const trustedTypes = (window as unknown as { trustedTypes?: TrustedTypes }).trustedTypes;
trustedTypes?.createPolicy('default', {
  createHTML(input) {
    if (input === '') return input;
    throw new TypeError('The console writes no HTML from strings.');
  },
});
