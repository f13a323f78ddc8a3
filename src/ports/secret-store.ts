/**
 * Secret values kept by reference: events and read models carry only a `ref`, the value lives
 * here, encrypted. Deleting a ref destroys what could decrypt it (crypto-shredding), so a replay
 * of the log can never bring the value back.
 */
export interface SecretStore {
  /** Encrypts `value` and keeps it under `ref` in the workspace (a ref already there is replaced). */
  put(workspaceId: string, ref: string, value: string): Promise<void>;
  /** The plain value, or null when the ref was never stored or has been deleted. */
  get(workspaceId: string, ref: string): Promise<string | null>;
  /** Destroys the value for good; deleting a ref that is not there is no error. */
  delete(workspaceId: string, ref: string): Promise<void>;
  close(): Promise<void>;
}

/** The key every workspace's data key is wrapped with (KBQA_SECRET_KEY): 32 bytes. */
export type MasterKey = Buffer;
