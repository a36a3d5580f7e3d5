declare const __JOBFIT_VERSION__: string | undefined;

/** Injected by the bundler; read from package.json when running from source (tests). */
export const VERSION: string =
  typeof __JOBFIT_VERSION__ === 'string' ? __JOBFIT_VERSION__ : (process.env.npm_package_version ?? '0.0.0-dev');
