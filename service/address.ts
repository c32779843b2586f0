/** Where the approval service listens unless told otherwise: loopback, so nothing reaches it from outside by default. */
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 7411;
