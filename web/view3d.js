// The 3-D view's input (a robot drawn in 3-D, such as the Panda): what a press on the arm panel
// grabs (Rust decides: the target, the view's orbit, or the depth), the wheel and PageUp /
// PageDown for depth, two fingers to orbit, a reset-view button, the latent panel's choice
// of the two axes it slices, and a robot's collision spheres shown or not. app.js imports this
// module only for such views; every number and decision is the Playground's.

/** Binds the 3-D controls; returns show(state), which shows or hides them with the view. */
export function bind({ pg, $, guarded, render, queueDraw, change, setArmGrab }) {
  let shown = null;
  const touches = new Set();
  const act = (fn) => {
    render(guarded(fn));
    queueDraw();
  };
  const arm = $('arm');
  const latent = $('latent');

  setArmGrab((e, [px, py]) => {
    if (!shown?.view3d) return undefined;
    if (e.pointerType === 'touch') touches.add(e.pointerId);
    const fingers = e.pointerType === 'touch' ? touches.size : 0;
    const mode = guarded(() => pg.grab(px, py, e.shiftKey, fingers));
    if (mode === undefined) return undefined;
    arm.dataset.grab = mode;
    return (x, y) => pg.drag(x, y);
  });
  const lift = (e) => {
    touches.delete(e.pointerId);
    delete arm.dataset.grab;
  };
  arm.addEventListener('pointerup', lift);
  arm.addEventListener('pointercancel', lift);
  arm.addEventListener('wheel', (e) => {
    if (!shown?.view3d) return;
    e.preventDefault();
    act(() => pg.depth(e.deltaY < 0 ? 1 : -1));
  }, { passive: false });
  arm.addEventListener('keydown', (e) => {
    if (!shown?.view3d) return;
    const step = { PageUp: 1, PageDown: -1 }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      act(() => pg.nudge(0, 0, step * (e.shiftKey ? 10 : 1)));
    } else if (e.key === 'Home') {
      e.preventDefault();
      act(() => pg.resetView());
    }
  });
  // A turning target (a pose, a tool axis): q / e turn it about its own z axis, shift + arrows
  // tilt it, 5° a press. Captured first, so the arrows' plain nudge does not also run.
  const turns = { q: ['z', 1], e: ['z', -1], Q: ['z', 1], E: ['z', -1] };
  const tilts = { ArrowLeft: ['y', -1], ArrowRight: ['y', 1], ArrowUp: ['x', -1], ArrowDown: ['x', 1] };
  arm.addEventListener('keydown', (e) => {
    if (!shown?.turning || e.ctrlKey || e.metaKey || e.altKey) return;
    const turn = turns[e.key] ?? (e.shiftKey ? tilts[e.key] : undefined);
    if (!turn) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    act(() => pg.turnTarget(turn[0], turn[1]));
  }, { capture: true });
  latent.addEventListener('keydown', (e) => {
    const step = { PageUp: 1, PageDown: -1 }[e.key];
    if (step === undefined || !shown?.latentAxes?.length) return;
    e.preventDefault();
    act(() => pg.nudgeProbe(0, 0, step * (e.shiftKey ? 10 : 1)));
  });

  const reset = document.createElement('button');
  Object.assign(reset, { type: 'button', id: 'view-reset', textContent: 'Reset view', title: 'Back to the first view (Home on the panel)' });
  reset.className = 'panel-button';
  reset.addEventListener('click', () => act(() => pg.resetView()));
  arm.parentElement.append(reset);

  const axes = document.createElement('select');
  axes.id = 'latent-axes';
  axes.className = 'panel-button';
  axes.setAttribute('aria-label', 'The two latent axes the latent panel shows (the others stay at your z)');
  axes.append(...[[1, 2], [1, 3], [2, 3]].map(([a, b]) => new Option(`z${a}–z${b} slice`, `${a},${b}`)));
  axes.addEventListener('change', () => {
    const [a, b] = axes.value.split(',');
    change({ view3d: { ...pg.settings().view3d, axes: [Number(a) - 1, Number(b) - 1] } });
  });
  latent.parentElement.append(axes);

  // A robot that keeps clear of things (its collision spheres, a scene): every sphere drawn, or
  // only the links that overlap something.
  const spheres = document.createElement('label');
  spheres.className = 'panel-button';
  spheres.id = 'spheres-toggle';
  const spheresBox = document.createElement('input');
  Object.assign(spheresBox, { type: 'checkbox', id: 'spheres' });
  spheres.append(spheresBox, ' spheres');
  spheres.title = 'Draw every collision sphere (a link that overlaps something is red either way)';
  spheresBox.addEventListener('change', () => {
    change({ view3d: { ...pg.settings().view3d, spheres: spheresBox.checked } });
  });
  arm.parentElement.append(spheres);

  // The first-visit hint names this view's own gestures while it is shown.
  const hint = $('hint');
  const planarHint = hint.textContent;
  const hint3d = 'Drag the target ⊕ to move it, empty space to turn the view (keys: arrows, PageUp/PageDown)';
  const hintTurning = 'Drag ⊕ to move the target, its ring to turn it, empty space to turn the view (keys: q/e, shift+arrows)';

  return function show(state) {
    shown = state;
    hint.textContent = state.turning ? hintTurning : state.view3d ? hint3d : planarHint;
    hint.classList.toggle('tall', Boolean(state.view3d));
    reset.hidden = !state.view3d;
    axes.hidden = !state.latentAxes?.length;
    spheres.hidden = !state.collision;
    spheresBox.checked = Boolean(state.collision?.spheres);
    if (state.latentAxes?.length === 2) axes.value = state.latentAxes.join(',');
  };
}
