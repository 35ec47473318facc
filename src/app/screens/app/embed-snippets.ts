/**
 * The HTML that embeds an app's chat in another web page, one helper for every tab that offers it
 * (the api tab, the distribute tab): a plain iframe of the portal's chrome-less chat
 * (`/portal/chat/{appId}`, spec 2: login required, so the frame shows the sign-in when needed) and the
 * bubble script (`/embed.js`, public/embed.js) that adds a chat button to the page's corner and opens
 * that same chat in a panel. Pure.
 */

/** Where the bubble sits, its colour and whether it starts open: the script's data attributes. */
export interface BubbleOptions {
  position: 'right' | 'left';
  /** A CSS hex colour (#rgb or #rrggbb); anything else falls back to the default. */
  color: string;
  /** Open the chat as soon as the page loads. */
  open: boolean;
}

/** The script's defaults: a snippet leaves out the attributes that equal them. */
export const DEFAULT_BUBBLE: BubbleOptions = { position: 'right', color: '#4263eb', open: false };

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A value inside a double-quoted HTML attribute. */
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The server's origin without a trailing slash. */
const originOf = (origin: string) => origin.replace(/\/+$/, '');

/** The embedded chat's address. */
export const embedChatUrl = (origin: string, appId: string) => `${originOf(origin)}/portal/chat/${encodeURIComponent(appId)}`;

/**
 * The plain iframe of the app's chat.
 * @example iframeSnippet('https://weft.example', 'a1') // '<iframe src="https://weft.example/portal/chat/a1" …></iframe>'
 */
export function iframeSnippet(origin: string, appId: string): string {
  return `<iframe src="${attr(embedChatUrl(origin, appId))}" style="width: 100%; height: 100%; min-height: 700px" frameborder="0" allow="clipboard-write; microphone"></iframe>`;
}

/**
 * The bubble script tag; options equal to {@link DEFAULT_BUBBLE} are left out.
 * @example bubbleSnippet('https://weft.example', 'a1') // '<script src="https://weft.example/embed.js" data-app-id="a1" defer></script>'
 */
export function bubbleSnippet(origin: string, appId: string, options: Partial<BubbleOptions> = {}): string {
  const o = { ...DEFAULT_BUBBLE, ...options };
  const attrs = [`src="${attr(`${originOf(origin)}/embed.js`)}"`, `data-app-id="${attr(appId)}"`];
  if (o.position !== DEFAULT_BUBBLE.position) attrs.push(`data-position="${o.position === 'left' ? 'left' : 'right'}"`);
  const color = HEX_COLOR.test(o.color) ? o.color.toLowerCase() : DEFAULT_BUBBLE.color;
  if (color !== DEFAULT_BUBBLE.color) attrs.push(`data-color="${attr(color)}"`);
  if (o.open) attrs.push('data-open="true"');
  return `<script ${attrs.join(' ')} defer></script>`;
}
