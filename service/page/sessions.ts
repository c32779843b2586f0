/**
 * Reviewers' page sessions: a random 32-byte id in an HttpOnly, SameSite=Strict cookie, mapped in
 * the service's memory to the reviewer and the SHA-256 of the token they signed in with (never the
 * token). Each use checks that token against the tokens file again, so revoking a reviewer ends
 * their sessions at once; a restart ends every session (reviewers sign in again, the queue is in
 * the database). Sessions end after `SESSION_HOURS` whatever their use.
 */
import { randomBytes } from "node:crypto";
import { reviewerOfDigest } from "../tokens";

export const SESSION_COOKIE = "clauz3_session";
export const SESSION_HOURS = 12;

interface Session {
  readonly digest: Buffer;
  readonly expires: number;
}

export class Sessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly tokensFile: string) {}

  /** A new session for the token with this digest (already authenticated); its id. */
  open(digest: Buffer, now = Date.now()): string {
    for (const [id, s] of this.sessions) if (s.expires <= now) this.sessions.delete(id);
    const id = randomBytes(32).toString("base64url");
    this.sessions.set(id, { digest, expires: now + SESSION_HOURS * 3600_000 });
    return id;
  }

  /** The reviewer of session `id` while it lasts and its token is still issued, else undefined (and the session ends). */
  reviewer(id: string | undefined, now = Date.now()): string | undefined {
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session) return undefined;
    const reviewer = session.expires > now ? reviewerOfDigest(this.tokensFile, session.digest) : undefined;
    if (reviewer === undefined) this.sessions.delete(id!);
    return reviewer;
  }

  close(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(id);
  }
}
