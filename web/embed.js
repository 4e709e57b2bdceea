// The embed builder of the playground (the "Embed…" dialog), loaded by web/app.js when first
// opened: a checkbox for embed=1 and one per hideable control; the <iframe> snippet and a live
// preview follow every change. No numerics: the hash comes from Rust (pg.embedHash).

const $ = (id) => document.getElementById(id);
let ctx = null;

/** The embed builder: a checkbox for embed=1 and one per hideable control; the snippet and
 *  the preview follow every change. */
function buildEmbedOptions() {
  const options = $('embed-options');
  if (options.querySelector('input')) return;
  const box = (name, text, checked) => {
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.name = name;
    input.checked = checked;
    input.addEventListener('change', updateEmbed);
    const label = document.createElement('label');
    label.append(input, ` ${text}`);
    return label;
  };
  options.append(box('embed', 'panels only (embed=1)', true));
  for (const name of ctx.Playground.hideable()) options.append(box(`hide:${name}`, `hide ${name}`, false));
  for (const id of ['embed-width', 'embed-height']) $(id).addEventListener('input', updateEmbed);
}

let previewTimer = 0;
function updateEmbed() {
  const boxes = [...$('embed-options').querySelectorAll('input[type=checkbox]')];
  const embed = boxes.find((b) => b.name === 'embed').checked;
  const hide = boxes.filter((b) => b.name.startsWith('hide:') && b.checked).map((b) => b.name.slice(5));
  const src = ctx.viewUrl(ctx.guarded(() => ctx.pg.embedHash(embed, hide)) ?? ctx.pg.hash());
  const size = (id, fallback) => (/^\d{2,4}$/.test($(id).value) ? $(id).value : fallback);
  const snippet = `<iframe src="${src}" width="${size('embed-width', '800')}" height="${size('embed-height', '600')}" style="border:0" loading="lazy" title="LOInK playground"></iframe>`;
  $('embed-snippet').value = snippet;
  $('embed-builder').dataset.src = src;
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    let frame = $('embed-preview');
    if (!frame) {
      // Made on first use: a page that never opens the builder holds no extra frame.
      frame = document.createElement('iframe');
      frame.id = 'embed-preview';
      frame.title = 'Preview of the embedded view';
      $('embed-preview-slot').append(frame);
    }
    if (frame.src !== src) frame.src = src;
  }, 150);
}

/** Opens the builder; `context` holds the page's playground and helpers. */
export function openEmbed(context) {
  if (!ctx) {
    $('embed-copy').addEventListener('click', async () => {
      const copied = await ctx.copyText($('embed-snippet').value, () => {
        $('embed-snippet').focus();
        $('embed-snippet').select();
      });
      $('embed-copied').textContent = copied ? 'Snippet copied.' : 'Select and copy the snippet above.';
    });
  }
  ctx = context;
  buildEmbedOptions();
  updateEmbed();
  $('embed-copied').textContent = '';
  $('embed-builder').showModal();
}
