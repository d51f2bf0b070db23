/** The SDK's version, sent in the `user-agent` header. Kept in step with package.json by hand. */
export const SDK_VERSION = "0.1.0";
