import { z } from 'zod';

/**
 * The error catalogue (spec 8.2 plus the auth/permission/system codes Weft adds, see README
 * "Design decisions"). Every error answer is `{ code, msg, data }` with one of these codes.
 */
export const ErrorCode = {
  /** Parameter error; on a project or id page: does not exist / no permission. */
  PARAM: 'VALIDATION-1000',
  EXISTS: 'VALIDATION-1001',
  CREATE_WITH_ID: 'VALIDATION-1002',
  UPDATE_WITHOUT_ID: 'VALIDATION-1003',
  DELETE_WITHOUT_ID: 'VALIDATION-1004',
  SELECT_WITHOUT_ID: 'VALIDATION-1005',
  NOT_EXIST: 'VALIDATION-1006',
  EXPORT_TOO_LARGE: 'VALIDATION-1007',
  HEADER_MISSING: 'VALIDATION-1008',
  PAGE_SIZE_TOO_LARGE: 'VALIDATION-1009',
  DELETE_TOO_MANY: 'VALIDATION-1010',
  NOT_UNIQUE: 'VALIDATION-1011',
  FORM_ALL_EMPTY: 'VALIDATION-1012',
  /** No valid access token (401): the client refreshes once, then shows login. */
  UNAUTHENTICATED: 'AUTH-1001',
  /** Wrong account or password (400, 'Login failed'). */
  LOGIN_FAILED: 'AUTH-1002',
  /** The account or its tenant is disabled (403 at login). */
  ACCOUNT_DISABLED: 'AUTH-1003',
  /** Refresh token unknown, expired or revoked (401). */
  REFRESH_INVALID: 'AUTH-1004',
  /** Old password wrong on a password change (400). */
  PASSWORD_MISMATCH: 'AUTH-1005',
  /**
   * Too many failed sign-ins (or wrong old passwords) for the account, the address or both (429, with
   * `Retry-After`); `data.retry_after` says in how many seconds to try again.
   */
  TOO_MANY_ATTEMPTS: 'AUTH-1006',
  /** The public API's key (`Authorization: Bearer wk-…`) is missing, unknown or revoked, or not a key of this app or space (401). */
  API_KEY_INVALID: 'AUTH-1007',
  /**
   * Single sign-on failed at or with the provider (400, 'Social login failure'): a wrong or expired
   * state, a code the provider refused (expired, replayed), a bad id token, the provider unreachable.
   */
  SSO_FAILED: 'SSO-1000',
  /** The sign-in ticket is unknown, expired or already used (400). */
  SSO_TICKET_INVALID: 'SSO-1001',
  /** The provider's token names no tenant (the configured claim) or an unknown or disabled one (403); nothing is created. */
  SSO_NO_TENANT: 'SSO-1002',
  /** Account and password sign-in is off for this account in this auth mode (403): sign in through the provider. */
  LOCAL_LOGIN_OFF: 'SSO-1003',
  /** Single sign-on is not the configured auth mode (400). */
  SSO_NOT_ENABLED: 'SSO-1004',
  /** Verification-code sign-in (spec 5 login rules): the phone number is empty (400). */
  LOGIN_PHONE_REQUIRED: 'LOGIN-1000',
  /** The phone number is not a valid mobile number (11 digits from 1[3-9], or +country and digits) (400). */
  LOGIN_PHONE_INVALID: 'LOGIN-1001',
  /** The email is empty (400). */
  LOGIN_EMAIL_REQUIRED: 'LOGIN-1002',
  /** The email is not a valid address (400). */
  LOGIN_EMAIL_INVALID: 'LOGIN-1003',
  /** The verification code is empty (400). */
  LOGIN_CODE_REQUIRED: 'LOGIN-1004',
  /** The verification code is wrong, expired, already used or out of attempts (400); nothing says which. */
  LOGIN_CODE_INVALID: 'LOGIN-1005',
  /** Sign-in by this channel's code is not configured on the server (400: no SMTP, no SMS sender). */
  LOGIN_CODE_UNAVAILABLE: 'LOGIN-1006',
  /** The mail or SMS could not be sent (502); the detail is in the server's log. */
  LOGIN_CODE_SEND_FAILED: 'LOGIN-1007',
  /**
   * The key made more requests this minute than its limit allows (429, with `Retry-After`);
   * `data.retry_after` says in how many seconds the next minute starts.
   */
  RATE_LIMITED: 'RATE-1000',
  /** The app has never been published: the public API and MCP run published versions only (400). */
  APP_NOT_PUBLISHED: 'APP-1000',
  /**
   * A flow file imported into an app holds a flow of another mode (400): `data.mode` is the file's,
   * `data.expected` the app's type. Nothing changes.
   */
  IMPORT_MODE_MISMATCH: 'APP-1001',
  /**
   * The knowledge unit is not in the state the action needs (409): it is being processed (a refresh
   * or a new processing task waits for the current one), or its vector analysis has not completed
   * (graph analysis, Q&A and segment index generation need its segments); `data.status` says where it is.
   */
  KNOWLEDGE_UNIT_STATE: 'KNOWLEDGE-1000',
  /** "Refresh now" of a knowledge unit that has no URL source (400): only URL units are fetched again. */
  KNOWLEDGE_NOT_URL: 'KNOWLEDGE-1001',
  /** Generation (segment indexes, graph analysis) needs a default chat model in the tenant (400): set one in model management. */
  KNOWLEDGE_NO_MODEL: 'KNOWLEDGE-1002',
  /** The caller's role does not allow the operation (403). */
  FORBIDDEN: 'PERMISSION-1000',
  /**
   * The change is based on an outdated version (409): e.g. a draft save whose base revision is no
   * longer the stored one; `data` says what is stored now, so the client can reload or overwrite.
   */
  CONFLICT: 'CONFLICT-1000',
  /**
   * A store item is not in the state the action needs (409): release or reject what awaits release,
   * take offline what is released, copy what is released; `data.review_state` says where it is.
   */
  STORE_STATE: 'STORE-1000',
  /** An approval is not in the state the action needs (409); `data.state` says where it is (schemas/approval.ts). */
  APPROVAL_STATE: 'APPROVAL-1000',
  /** The caller is not one of the approval's approvers (403). */
  APPROVAL_NOT_APPROVER: 'APPROVAL-1001',
  /** The submitter may not decide their own submission (403): another approver does. */
  APPROVAL_OWN: 'APPROVAL-1002',
  /** The item already has an approval in progress (409): wait for the decision or cancel it first. */
  APPROVAL_PENDING: 'APPROVAL-1003',
  /** The agreed item is already released (409): only a tenant admin's forced recall takes it back. */
  APPROVAL_RELEASED: 'APPROVAL-1004',
  /** Approval is turned on without any approver (400), or an approver is not of the tenant. */
  APPROVAL_NO_APPROVERS: 'APPROVAL-1005',
  /**
   * The destination is not allowed by the server's outbound network policy (400): loopback, private,
   * link-local, metadata or reserved addresses the operator's allow-list does not open. Answered
   * before any connection is tried.
   */
  NETWORK_NOT_ALLOWED: 'NETWORK-1000',
  /**
   * An allowed destination could not be reached (400): one answer for refused, reset, timed out,
   * unreachable or not speaking the protocol, so the answers tell nothing about open ports.
   */
  NETWORK_UNREACHABLE: 'NETWORK-1001',
  /**
   * A stdio MCP server that this server may not start (400): its command is not on the operator's
   * list, or its env or cwd would change what runs. Remote MCP servers are the way for project spaces.
   */
  MCP_STDIO_NOT_ALLOWED: 'MCP-1000',
  /**
   * A plugin package that cannot be read (400): not a gzip'd tar, truncated, a file missing
   * (manifest.json, server.mjs, browser.mjs) or a manifest that does not parse.
   */
  PLUGIN_PACKAGE_INVALID: 'PLUGIN-1000',
  /** A plugin package whose bundles do not match its manifest's SHA-256 checksum (400): nothing is loaded. */
  PLUGIN_CHECKSUM_MISMATCH: 'PLUGIN-1001',
  /**
   * The plugin's kinds are used by flows (409): delete refused unless `force`; `data.usage` lists
   * the apps. Forced, those nodes show an unknown-kind error in the editor's checklist.
   */
  PLUGIN_IN_USE: 'PLUGIN-1002',
  /**
   * The package does not fit this server (400): it needs a newer Weft, defines a kind a built-in or
   * another package already has, is not the plugin being upgraded, or its server bundle fails to load.
   */
  PLUGIN_INCOMPATIBLE: 'PLUGIN-1003',
  /**
   * Credentials for a plugin or tool that declares none (400): its manifest has no credentials
   * schema, so there is nothing to store. Nothing changes.
   */
  PLUGIN_NO_CREDENTIALS: 'PLUGIN-CREDENTIALS-NONE',
  /**
   * GBI (issue 30): the SQL is not a single read-only SELECT over the source's tables (400): DDL or
   * DML, several statements, SELECT INTO, a table function or a function that reads or writes files
   * or reaches the network, or SQL that does not parse. Nothing ran.
   */
  GBI_SQL_REFUSED: 'GBI-1000',
  /** GBI: the source's database refused the query, also after one correction by the model (400); `data.detail` says why. */
  GBI_QUERY_FAILED: 'GBI-1001',
  /** GBI: the spreadsheet cannot be read (400): not .csv or .xlsx (.xls: save it as .xlsx), empty, or no table in it. */
  GBI_FILE_UNREADABLE: 'GBI-1002',
  /** GBI: a database of this type cannot be asked on this server (400): its npm driver cannot be loaded. */
  GBI_SOURCE_UNSUPPORTED: 'GBI-1003',
  /**
   * Digital humans (issue 31): a broadcast script that is empty or longer than 1000 words (400; spec 5
   * "Digital human broadcast content: required, max 1000 words"; Chinese counts each character, other
   * scripts each word). Nothing is stored.
   */
  DH_SCRIPT_INVALID: 'DH-1000',
  /** The app's kind does not fit its type (400): conversation needs a chatflow or agent app, broadcast a workflow app. */
  DH_KIND_MISMATCH: 'DH-1001',
  /** A broadcast needs the app to speak as a character with a portrait or an idle clip (400). */
  DH_NO_CHARACTER: 'DH-1002',
  /** The broadcast is not in the state the action needs (409): its video is not rendered yet; `data.state` says where it is. */
  DH_BROADCAST_STATE: 'DH-1003',
  /** The character is used by apps (409): detach it from them first; `data.apps` lists them. */
  DH_CHARACTER_IN_USE: 'DH-1004',
  /** The video could not be rendered (speech or encoder failure, time limit); the broadcast is `failed` with the reason. */
  DH_RENDER_FAILED: 'DH-1005',
  /**
   * A character's portrait is not an image (400): png, jpg, webp, gif, bmp or svg (an SVG is drawn into
   * a PNG when it is set). Nothing is stored.
   */
  DH_PORTRAIT_FORMAT: 'DH-1050',
  /** An SVG portrait cannot be drawn (400): resvg cannot parse it, or it has no size. Nothing is stored. */
  DH_SVG_UNREADABLE: 'DH-1051',
  /**
   * An SVG portrait is out of bounds (400): thinner than 1:64, or its drawing goes over the memory cap
   * or the time limit (huge embedded images, filters over huge regions). Nothing is stored.
   */
  DH_SVG_LIMITS: 'DH-1052',
  /**
   * Speech (issue 31): voice input needs a speech-to-text model (400): the tenant has no default
   * speech2text model and the call named none. An admin sets one under System › Models.
   */
  SPEECH_NO_STT_MODEL: 'SPEECH-1000',
  /** Speech: the uploaded audio is not of an accepted type (400): webm, ogg, wav, mp3, mp4/m4a, flac. */
  SPEECH_AUDIO_UNSUPPORTED: 'SPEECH-1001',
  /** Speech: the uploaded audio is empty or larger than the limit (400); `data.limit` is the limit in bytes. */
  SPEECH_AUDIO_SIZE: 'SPEECH-1002',
  /** Speech: the text to speak is longer than the limit (400); `data.limit` is the limit in characters. */
  SPEECH_TEXT_TOO_LONG: 'SPEECH-1003',
  /**
   * Speech: the speech model or the offline voice failed (502; 400 for a setup fault such as a
   * disabled model or a refused key); `data.model_error` is the provider's error code.
   */
  SPEECH_FAILED: 'SPEECH-1004',
  /** Speech: nothing to speak (400): no text, or the message has no answer text. */
  SPEECH_TEXT_EMPTY: 'SPEECH-1005',
  /**
   * Speech through the public API (400): the app's served version has this voice feature off
   * (`text_to_speech` for text-to-audio, `speech_to_text` for audio-to-text); `data.feature` names it.
   */
  SPEECH_FEATURE_OFF: 'SPEECH-1060',
  /** No such route (404). */
  ROUTE_NOT_FOUND: 'SYSTEM-1404',
  /** Method not allowed (405). */
  METHOD_NOT_ALLOWED: 'SYSTEM-1405',
  /** Unexpected server fault (500). */
  INTERNAL: 'SYSTEM-1500',
  /**
   * The server is starting or stopping (503): `GET /readyz` before its database and code sandbox are
   * ready, and every request after a shutdown began (`Connection: close`; try again, another server
   * may take it).
   */
  NOT_READY: 'SYSTEM-1503',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const errorCodeValues = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

/** Field-level detail carried in `data` of a VALIDATION-1000 answer. */
export const FieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

export const ErrorEnvelope = z.object({
  code: z.string(),
  msg: z.string(),
  data: z.unknown().nullable(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
