/** Where the suites find each program (each overridable from the environment). */
export const browserPaths: {
  chromium: string;
  firefox: string;
  webkitDriver: string;
  miniBrowser: string;
  xvfb: string;
};
