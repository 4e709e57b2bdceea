//! The four panel canvases and their caches: the reachable region of the problem shown (and its
//! image), the gap map of each model, and the gap-map panel drawn without its marker. Each
//! `draw_*` draws one panel from the engine's state; nothing here solves.

use loink::problem::region::Region;
use loink::problem::{Problem, ProblemSpec};
use web_sys::HtmlCanvasElement;

use crate::draw::{self, Surface};
use crate::engine::Engine;
use crate::gap::GapMap;
use crate::keyed::Keyed;

/// Configurations of the reachable-region lattice (85 angles a joint on three links, 28 on
/// four): 150,000 left planar4's shading striped; this costs ~10–15 ms more of the first resize.
const REGION_SAMPLES: usize = 600_000;

/// The four panels, by canvas id.
pub const PANELS: [&str; 4] = ["arm", "landscape", "latent", "gapmap"];

/// What the cached gap-map panel shows.
#[derive(Debug, Clone, PartialEq)]
struct GapPanelKey {
    model: &'static str,
    /// The map's progress (bits), None without a map.
    progress: Option<u64>,
    size: (u32, u32),
    /// The message shown without a map.
    no_map: String,
}

/// The gap-map panel drawn without its marker, and its plot's pixel ↔ world map.
struct GapPanel {
    key: GapPanelKey,
    image: Surface,
    view: Option<crate::view::Viewport>,
}

/// The reachable region of one problem (models of the same problem share it) and its image.
struct RegionCache {
    problem: ProblemSpec,
    region: Region,
    image: HtmlCanvasElement,
}

/// The canvases and every cache derived from them.
#[derive(Default)]
pub struct Panels {
    surfaces: Keyed<Surface>,
    /// Off-screen surface the gap map's cells are painted into before scaling.
    gap_cells: Option<Surface>,
    /// The gap-map panel without its target marker (redrawn when the map or size changes).
    gap_panel: Option<GapPanel>,
    region: Option<RegionCache>,
    gap_maps: Keyed<GapMap>,
    /// The latent panel's plot as last drawn (pixel ↔ z), for pointer input.
    latent_view: Option<crate::view::Viewport>,
    /// What the arm panel's last drawing put over it, and where it drew the robot.
    arm_drawn: draw::overlay::ArmDrawn,
}

impl Panels {
    /// Attaches the canvas of panel `name`.
    pub fn attach(&mut self, name: &str, canvas: HtmlCanvasElement) -> Result<(), String> {
        let key = PANELS
            .into_iter()
            .find(|p| *p == name)
            .ok_or_else(|| format!("unknown panel '{name}' (known: {})", PANELS.join(", ")))?;
        self.surfaces.insert(key, Surface::new(canvas)?);
        Ok(())
    }

    /// The surface of panel `name`, if attached.
    pub fn surface(&self, name: &str) -> Option<&Surface> {
        self.surfaces.get(name)
    }

    /// Sets the pixel size of panel `name`'s canvas; returns whether it changed.
    pub fn size(
        &mut self,
        name: &str,
        css_width: f64,
        css_height: f64,
        dpr: f64,
    ) -> Result<bool, String> {
        let surface = self
            .surfaces
            .get_mut(name)
            .ok_or_else(|| format!("panel '{name}' is not attached"))?;
        Ok(surface.resize(css_width, css_height, dpr))
    }

    /// Forgets a model's gap map (its file was reloaded).
    pub fn forget_gap_map(&mut self, model: &str) {
        self.gap_maps.remove(model);
    }

    /// The viewport of the arm panel for the engine's problem (pointer mapping).
    pub fn arm_viewport(&self, engine: &Engine) -> Result<crate::view::Viewport, String> {
        let surface = self
            .surfaces
            .get("arm")
            .ok_or("canvas#arm is not attached")?;
        let region = self.region_of(engine.problem());
        let bounds = draw::arm::world_bounds(engine.problem(), region);
        Ok(plane_layout(surface, engine.problem(), bounds).view)
    }

    /// What the arm panel's last drawing put over it (legends, bars, insets) and where it drew
    /// the robot (device pixels).
    pub fn arm_drawn(&self) -> &draw::overlay::ArmDrawn {
        &self.arm_drawn
    }

    fn region_of(&self, problem: &Problem) -> Option<&Region> {
        let spec = problem.spec();
        self.region
            .as_ref()
            .filter(|c| c.problem == spec)
            .map(|c| &c.region)
    }

    /// Samples `problem`'s reachable region and renders its image unless the cache already
    /// holds it.
    pub fn ensure_region(&mut self, problem: &Problem) -> Result<(), String> {
        let spec = problem.spec();
        if self.region.as_ref().is_some_and(|c| c.problem == spec) {
            return Ok(());
        }
        let Some(region) = problem.reachable_region(REGION_SAMPLES) else {
            self.region = None;
            return Ok(());
        };
        let (rgba, w, h) = draw::arm::region_image(&region);
        let image = Surface::offscreen(&rgba, w, h)?;
        self.region = Some(RegionCache {
            problem: spec,
            region,
            image,
        });
        Ok(())
    }

    /// Every panel.
    pub fn redraw(&mut self, engine: &Engine) -> Result<(), String> {
        self.draw_arm(engine)?;
        self.draw_landscape(engine)?;
        self.draw_latent(engine)?;
        self.draw_gapmap(engine)
    }

    /// Panel `name` as an SVG document, from the same drawing code as the canvas (it is drawn
    /// once more while recording; the gap panel skips its cached image so that its axes and
    /// labels come out as vectors). `link` goes into the document's metadata. With `size` (CSS
    /// px, clamped like a canvas) the figure is laid out at that size and the panel is then
    /// drawn back at its own.
    pub fn export_svg(
        &mut self,
        name: &str,
        engine: &Engine,
        link: &str,
        size: Option<(f64, f64)>,
    ) -> Result<String, String> {
        let Some(surface) = self.surfaces.get_mut(name) else {
            return Err(format!(
                "'{name}' is not a panel (arm, landscape, latent, gapmap)"
            ));
        };
        let (own, dpr) = (surface.size(), surface.dpr());
        let own_css = (f64::from(own.0) / dpr, f64::from(own.1) / dpr);
        if let Some((w, h)) = size {
            surface.resize(w, h, dpr);
        }
        let figure = surface.size();
        surface.start_svg();
        if name == "gapmap" {
            self.gap_panel = None;
        }
        let drawn = self.draw(name, engine);
        let body = self
            .surfaces
            .get(name)
            .map(|s| s.finish_svg())
            .unwrap_or_default();
        if size.is_some() {
            if let Some(surface) = self.surfaces.get_mut(name) {
                surface.resize(own_css.0, own_css.1, dpr);
            }
            if name == "gapmap" {
                self.gap_panel = None;
            }
            self.draw(name, engine)?;
        }
        drawn?;
        let css = (f64::from(figure.0) / dpr, f64::from(figure.1) / dpr);
        let title = format!("LOInK playground, {name} panel");
        Ok(draw::svg::document(&body, figure, css, &title, link))
    }

    /// Panel `name` alone.
    pub fn draw(&mut self, name: &str, engine: &Engine) -> Result<(), String> {
        match name {
            "arm" => self.draw_arm(engine),
            "landscape" => self.draw_landscape(engine),
            "latent" => self.draw_latent(engine),
            _ => self.draw_gapmap(engine),
        }
    }

    /// The 3-D arm panel's layout at its current size and the engine's orbit (None: the
    /// problem is drawn in a plane, or the canvas is not attached).
    #[cfg(feature = "view3d")]
    pub fn arm_layout(&self, engine: &Engine) -> Option<draw::arm3d::Layout> {
        let surface = self.surfaces.get("arm")?;
        draw::arm3d::layout(surface, engine.problem(), engine.view())
    }

    /// The arm panel, sampling the reachable region first if needed.
    pub fn draw_arm(&mut self, engine: &Engine) -> Result<(), String> {
        #[cfg(feature = "view3d")]
        if let Some(layout) = self.arm_layout(engine) {
            self.arm_drawn = self.draw_arm3d(engine, &layout)?;
            return Ok(());
        }
        self.ensure_region(engine.problem())?;
        self.draw_arm_with_region_if_sampled(engine)
    }

    /// The arm panel with the reachable region only when it is already sampled for this
    /// problem (the first frame: sampling it is ~25 ms the page need not wait for).
    pub fn draw_arm_with_region_if_sampled(&mut self, engine: &Engine) -> Result<(), String> {
        #[cfg(feature = "view3d")]
        if let Some(layout) = self.arm_layout(engine) {
            self.arm_drawn = self.draw_arm3d(engine, &layout)?;
            return Ok(());
        }
        let Some(surface) = self.surfaces.get("arm") else {
            return Ok(());
        };
        let spec = engine.problem().spec();
        let region = self
            .region
            .as_ref()
            .filter(|c| c.problem == spec)
            .map(|c| (&c.region, &c.image));
        let bounds = draw::arm::world_bounds(engine.problem(), region.map(|r| r.0));
        let layout = plane_layout(surface, engine.problem(), bounds);
        let scene = draw::arm::ArmScene {
            answer: answer(engine),
            proposals: engine.proposals(),
            region,
        };
        self.arm_drawn = draw::arm::draw(surface, &scene, &layout)?;
        Ok(())
    }

    /// The arm panel of a robot drawn in 3-D.
    #[cfg(feature = "view3d")]
    fn draw_arm3d(
        &self,
        engine: &Engine,
        layout: &draw::arm3d::Layout,
    ) -> Result<draw::overlay::ArmDrawn, String> {
        let Some(surface) = self.surfaces.get("arm") else {
            return Ok(Default::default());
        };
        let scene = draw::arm3d::Arm3dScene {
            answer: answer(engine),
            hint: Some(if engine.problem().task().has_angle() {
                draw::arm3d::HINT_TURNING
            } else {
                draw::arm3d::HINT
            }),
            samples_label: None,
            legend: true,
            spheres: engine.settings().view3d.spheres,
            learned_scene: None,
        };
        draw::arm3d::draw(surface, &scene, layout)
    }

    /// The landscape panel.
    pub fn draw_landscape(&mut self, engine: &Engine) -> Result<(), String> {
        let Some(surface) = self.surfaces.get("landscape") else {
            return Ok(());
        };
        let cost_formula = engine.problem().cost().spec().formula();
        #[cfg(feature = "unswept")]
        // A robot whose joints are actuators (the soft arm's rods) shows their travel: its
        // model's latent curve says little about one rod. Other kinds keep the learned set's
        // cost curve.
        if crate::kinds::of(engine.problem()).landscape == crate::kinds::Landscape::Actuators
            && engine.problem().dof() > engine.problem().task_dim() + 1
        {
            let solution = engine.solution();
            let scene = draw::twists::TwistScene {
                solution: (solution.q(), solution.cost()),
                optimum: engine.optimum().map(|o| (o.q.as_slice(), o.cost)),
                samples: engine.samples(),
                upper: engine
                    .problem()
                    .limits()
                    .upper()
                    .iter()
                    .copied()
                    .fold(0.0, f64::max),
                cost_formula: &cost_formula,
            };
            return draw::twists::draw(surface, &scene);
        }
        #[cfg(feature = "unswept")]
        if let Some(sweep) = engine.pieces() {
            let solution = engine.solution();
            let marks = [draw::pieces::PieceMark {
                label: engine.settings().solver.label(),
                q: solution.q(),
                cost: solution.cost(),
                reached: solution.status() == loink::report::Status::Converged,
                colour: draw::palette::SOLUTION,
            }];
            let scene = draw::pieces::PiecesScene {
                sweep,
                marks: &marks,
                optimum: engine.optimum().map(|o| (o.q.as_slice(), o.cost)),
                cost_formula: &cost_formula,
            };
            return draw::pieces::draw(surface, &scene);
        }
        let no_curve = no_model_reason(engine);
        let scene = draw::landscape::LandscapeScene {
            cost_formula: &cost_formula,
            motion: engine.motion(),
            dof: engine.problem().dof(),
            solution: (engine.solution().q(), engine.solution().cost()),
            curve: engine.curve(),
            no_curve: &no_curve,
            chart_regions: engine
                .model()
                .filter(|m| m.chart_count() > 1)
                .map_or(&[], |m| m.set().regions()),
            compare: None,
            // The problems without a sweep (the soft arm, the climber) are the full bundle's.
            #[cfg(feature = "unswept")]
            others: (!loink::solvers::reference::sweeps(engine.problem())).then(|| {
                // One row per latent axis after the first, up to z₃ (one while no model).
                let rows = engine.model().map_or(1, |m| m.latent_dim().clamp(2, 3) - 1);
                (0..rows).map(|i| engine.other_curves().get(i)).collect()
            }),
        };
        draw::landscape::draw(surface, &scene)
    }

    /// The latent panel.
    pub fn draw_latent(&mut self, engine: &Engine) -> Result<(), String> {
        let Some(surface) = self.surfaces.get("latent") else {
            return Ok(());
        };
        let no_map = no_model_reason(engine);
        let scene = draw::latent::LatentScene {
            map: engine.latent_map(),
            no_map: &no_map,
            probe: &engine.settings().probe,
            chart: engine
                .model()
                .filter(|m| m.chart_count() > 1)
                .map(|m| (m.shown_chart(), m.chart_count())),
            domain: crate::kinds::of(engine.problem()).domain_words,
        };
        self.latent_view = draw::latent::draw(surface, &scene)?;
        Ok(())
    }

    /// The latent panel's plot as last drawn (None before it shows a map).
    pub fn latent_viewport(&self) -> Option<crate::view::Viewport> {
        self.latent_view
    }

    /// Steps the gap map of the current model; returns (work remains, something changed).
    pub fn step_gap_map(&mut self, engine: &Engine, budget_micros: f64) -> (bool, bool) {
        let name = engine.entry().name;
        if self.ensure_region(engine.problem()).is_err() {
            return (false, false);
        }
        let Some(region) = self.region_of(engine.problem()).cloned() else {
            return (false, false);
        };
        let Some(model) = engine.model() else {
            return (false, false);
        };
        // A target with coordinates beyond the plane (the climber's clearance) maps the plane
        // at those: the map starts over when they change.
        let rest = engine.target().get(2..).unwrap_or_default();
        if self.gap_maps.get(name).is_some_and(|m| m.rest != rest) {
            self.gap_maps.remove(name);
        }
        let map = self
            .gap_maps
            .get_or_insert_with(name, || GapMap::new(name, &region, rest));
        if map.done() {
            return (false, false);
        }
        let changed = map.step(engine.problem(), model, &region, budget_micros);
        (!map.done(), changed)
    }

    /// The gap-map panel: the cached image of the map plus the target marker.
    pub fn draw_gapmap(&mut self, engine: &Engine) -> Result<(), String> {
        if !self.surfaces.contains_key("gapmap") {
            return Ok(());
        }
        if self.gap_cells.is_none() {
            let cells = crate::gap::CELLS as u32;
            self.gap_cells = Some(Surface::blank(cells, cells)?);
        }
        let (Some(surface), Some(cells)) = (self.surfaces.get("gapmap"), self.gap_cells.as_ref())
        else {
            return Ok(());
        };
        let name = engine.entry().name;
        let map = self.gap_maps.get(name);
        let no_map = no_model_reason(engine);
        let key = GapPanelKey {
            model: name,
            progress: map.map(|m| m.progress().to_bits()),
            size: surface.size(),
            no_map: if map.is_some() {
                String::new()
            } else {
                no_map.clone()
            },
        };
        let target = engine.target();
        if let Some(cache) = self.gap_panel.as_ref().filter(|c| c.key == key) {
            surface.copy_from(cache.image.canvas())?;
            if let Some(view) = &cache.view {
                draw::gapmap::draw_marker(surface, view, target)?;
            }
            return Ok(());
        }
        let scene = draw::gapmap::GapScene {
            map,
            no_map: &no_map,
            target,
            cells,
        };
        let view = draw::gapmap::draw_static(surface, &scene)?;
        let image = match self.gap_panel.take() {
            Some(old) if old.key.size == key.size => old.image,
            _ => Surface::blank(key.size.0, key.size.1)?,
        };
        image.copy_from(surface.canvas())?;
        if let Some(view) = &view {
            draw::gapmap::draw_marker(surface, view, target)?;
        }
        self.gap_panel = Some(GapPanel { key, image, view });
        Ok(())
    }
}

/// Why a learned panel is empty, in words.
/// The current answer as every arm panel shows it.
/// The 2-D arm panel's layout for `problem` (a band for the loads bars of a robot on
/// contacts).
fn plane_layout(
    surface: &Surface,
    problem: &Problem,
    bounds: [f64; 4],
) -> draw::arm_layout::ArmLayout {
    let bars = problem.capabilities().statics.is_some();
    draw::arm_layout::layout(surface, bounds, bars)
}

fn answer(engine: &Engine) -> draw::Answer<'_> {
    draw::Answer {
        problem: engine.problem(),
        solution: engine.solution(),
        solver: engine.settings().solver.label(),
        optimum: engine.optimum().map(|o| o.q.as_slice()),
        samples: engine.samples(),
        probe: engine.probe(),
        target: engine.target(),
    }
}

fn no_model_reason(engine: &Engine) -> String {
    let entry = engine.entry();
    if engine.model().is_none() {
        crate::catalog::missing_reason(entry)
    } else if engine.model().is_some_and(|m| m.latent_dim() == 0) {
        // Nothing is coming: without redundancy G has no latent coordinates to draw along.
        "no latent space: this arm has no redundancy (G maps joints to the task alone)".to_string()
    } else {
        "computing…".to_string()
    }
}
