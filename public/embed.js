/*
 * Weft chat bubble. A page includes
 *   <script src="https://weft.example/embed.js" data-app-id="APP_ID" defer></script>
 * and gets a round button in a corner of the window that opens the app's chat (an iframe of
 * /portal/chat/APP_ID, the portal's chat without its chrome; the frame asks the user to sign in when
 * needed). Options, as data attributes of the script tag:
 *   data-position="left"      bottom-left instead of bottom-right
 *   data-color="#0f766e"      the button's colour (#rgb or #rrggbb)
 *   data-open="true"          open the chat as soon as the page loads
 * Plain JavaScript with no dependencies; everything lives in a shadow root so the page's styles and
 * ours cannot touch each other. The chat frame is only created when first opened.
 */
(function () {
  'use strict';
  var script =
    document.currentScript ||
    // Without currentScript (an old engine, or the tag added by another script): the last tag naming embed.js.
    Array.prototype.slice.call(document.querySelectorAll('script[data-app-id]')).filter(function (s) {
      return /\/embed\.js(\?|#|$)/.test(s.src);
    }).pop();
  if (!script) return;
  var appId = script.getAttribute('data-app-id');
  if (!appId) {
    console.warn('[weft] embed.js needs data-app-id');
    return;
  }
  var registry = (window.__weftEmbeds = window.__weftEmbeds || {});
  if (registry[appId]) return; // the same snippet pasted twice
  var origin = new URL(script.src, location.href).origin;
  var left = script.getAttribute('data-position') === 'left';
  var colorAttr = script.getAttribute('data-color') || '';
  var color = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(colorAttr) ? colorAttr : '#4263eb';
  var zh = /^zh\b/i.test(document.documentElement.lang || navigator.language || '');
  var text = zh ? { open: '打开对话', close: '关闭对话', title: '对话' } : { open: 'Open chat', close: 'Close chat', title: 'Chat' };
  var side = left ? 'left' : 'right';

  var host = document.createElement('div');
  host.setAttribute('data-weft-embed', appId);
  var root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
  var css =
    ':host{all:initial}' +
    '.button{position:fixed;bottom:20px;' + side + ':20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;' +
    'background:' + color + ';color:#fff;cursor:pointer;display:flex;align-items:center;justify-content:center;' +
    'box-shadow:0 6px 20px rgba(16,24,40,.24);transition:transform .15s ease}' +
    '.button:hover{transform:scale(1.06)}' +
    '.button:focus-visible{outline:3px solid ' + color + ';outline-offset:3px}' +
    '.button svg{width:26px;height:26px}' +
    '.panel{position:fixed;bottom:88px;' + side + ':20px;z-index:2147483000;width:400px;height:640px;' +
    'max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);border-radius:12px;overflow:hidden;background:#fff;' +
    'box-shadow:0 12px 40px rgba(16,24,40,.28);display:none}' +
    '.panel[data-open=true]{display:block}' +
    '.panel iframe{width:100%;height:100%;border:0;display:block}' +
    '@media (max-width:480px){.panel{bottom:0;' + side + ':0;width:100vw;max-width:100vw;height:calc(100vh - 84px);max-height:none;border-radius:12px 12px 0 0}}';
  var chatIcon =
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';
  var closeIcon =
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M18 6 6 18M6 6l12 12"/></svg>';

  var style = document.createElement('style');
  style.textContent = css;
  var panel = document.createElement('div');
  panel.className = 'panel';
  panel.id = 'weft-chat-' + appId;
  panel.setAttribute('part', 'panel');
  var button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.setAttribute('part', 'button');
  button.setAttribute('aria-controls', panel.id);
  root.appendChild(style);
  root.appendChild(panel);
  root.appendChild(button);

  var open = false;
  function render() {
    button.innerHTML = open ? closeIcon : chatIcon;
    button.setAttribute('aria-label', open ? text.close : text.open);
    button.setAttribute('aria-expanded', String(open));
    panel.setAttribute('data-open', String(open));
  }
  function setOpen(next) {
    open = next;
    if (open && !panel.firstChild) {
      var frame = document.createElement('iframe');
      frame.src = origin + '/portal/chat/' + encodeURIComponent(appId);
      frame.title = text.title;
      frame.setAttribute('allow', 'clipboard-write; microphone');
      panel.appendChild(frame);
    }
    render();
  }
  button.addEventListener('click', function () {
    setOpen(!open);
  });
  document.addEventListener('keydown', function (e) {
    if (open && e.key === 'Escape') {
      setOpen(false);
      button.focus();
    }
  });
  registry[appId] = { open: function () { setOpen(true); }, close: function () { setOpen(false); } };

  function mount() {
    document.body.appendChild(host);
    setOpen(script.getAttribute('data-open') === 'true');
  }
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
