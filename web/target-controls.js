// The target's controls beyond the pointer (a slider per further coordinate, such as the
// climber's body clearance) and the view's named targets (a button each). app.js imports this
// module only for views that have them (the full bundle's); Rust gives every number and word.

/** Binds the controls to the page; returns show(state), which builds them when the view's set
 *  of them changes and keeps their values current. */
export function bind({ pg, $, guarded, render, queueDraw }) {
  let key = '';
  const apply = (fn) => {
    render(guarded(fn));
    queueDraw();
  };
  return function show(state) {
    const box = $('target-controls');
    const next = JSON.stringify([state.targetControls.map((c) => [c.name, c.min, c.max, c.step]), state.presets]);
    if (next !== key) {
      key = next;
      const sliders = state.targetControls.map((c) => {
        const input = document.createElement('input');
        Object.assign(input, { type: 'range', id: c.name, min: String(c.min), max: String(c.max), step: String(c.step) });
        input.setAttribute('aria-label', c.label);
        input.addEventListener('input', () => apply(() => pg.setTargetCoordinate(c.coordinate, Number(input.value))));
        const output = document.createElement('output');
        output.htmlFor = c.name;
        output.dataset.targetValue = c.name;
        const label = document.createElement('label');
        label.append(`${c.label} `, input, output);
        return label;
      });
      const presets = state.presets.map((p) => {
        const button = document.createElement('button');
        Object.assign(button, { type: 'button', textContent: p.name, title: `Target: ${p.target.join(', ')}` });
        button.dataset.preset = p.name;
        button.addEventListener('click', () => apply(() => pg.setTarget(p.target)));
        return button;
      });
      box.replaceChildren(...sliders, ...presets);
    }
    for (const c of state.targetControls) {
      const input = $(c.name);
      if (document.activeElement !== input) input.value = String(c.value);
      box.querySelector(`[data-target-value="${c.name}"]`).textContent = c.text;
    }
  };
}
