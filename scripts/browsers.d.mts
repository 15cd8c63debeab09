/** Where the suites find each program (each overridable from the environment). */
export const browserPaths: {
  chromium: string;
  firefox: string;
  webkitDriver: string;
  miniBrowser: string;
  xvfb: string;
};

/** Chromium as every Playwright launch here uses it: the popup blocker on, and quiet. */
export const chromiumLaunchOptions: { executablePath: string; ignoreDefaultArgs: string[]; args: string[] };
