/**
 * The guest's own replica on this device (issue 20 §3; db/replica.ts GUEST_ID explains it). Its
 * id can never be a person's (ids are UUIDs or demo names): a small module, so the app shell can
 * name it without loading RxDB.
 */
export const GUEST_ID = '~guest';
