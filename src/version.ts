// svc's version, and the extension versions this code speaks: the package follows the extension
// (package.json's version is svc.control's default_version; test/version.test.ts keeps the three
// equal). A constant, not a read of package.json, so that the compiled package finds it too.
export const VERSION = '0.2.0';

/** Versions of the svc extension whose worker protocol and functions this worker and CLI speak. */
export const EXTENSION_VERSIONS: readonly string[] = [VERSION];

/** What `svc --version` and `svc-worker --version` print. */
export const versionLine = (command: string) =>
  `${command} ${VERSION} (svc extension ${EXTENSION_VERSIONS.join(', ')})`;
