//! `loink spheres --urdf FILE [--srdf FILE] --out FILE.json`: each link's collision geometry
//! (STL meshes, boxes, cylinders, spheres) covered by a few spheres, with how well they fit,
//! and the link pairs never checked (joined by a joint, or disabled by the SRDF).

mod fit;
mod shapes;

use std::path::PathBuf;

use clap::Args;
use loink::problem::chain::collision::spheres_file::{LinkSpheres, SpheresFile, FORMAT};
use loink::problem::chain::urdf::geometry;
use loink::problem::chain::ChainSource;
use sha2::{Digest, Sha256};

use crate::cli::CliError;

/// The flags of `loink spheres`.
#[derive(Debug, Clone, Args)]
pub struct SpheresArgs {
    /// The URDF whose `<collision>` elements to cover.
    #[arg(long, value_name = "FILE")]
    pub urdf: PathBuf,
    /// The robot's SRDF: its `<disable_collisions>` pairs are never checked.
    #[arg(long, value_name = "FILE")]
    pub srdf: Option<PathBuf>,
    /// Where to write the spheres (JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// More directories to look for mesh files in (the URDF's own directory comes first).
    #[arg(long = "mesh-dir", value_name = "DIR")]
    pub mesh_dirs: Vec<PathBuf>,
    /// The largest bulge outside a link's geometry to aim for (m): each link gets the fewest
    /// spheres that reach it.
    #[arg(long, default_value_t = 0.02, value_name = "M")]
    pub bulge: f64,
    /// Most spheres per link.
    #[arg(long = "max-spheres", default_value_t = 10, value_name = "N")]
    pub max_spheres: usize,
}

/// Reads a file of at most `limit` bytes.
fn read(path: &PathBuf, limit: u64) -> Result<Vec<u8>, CliError> {
    let size = std::fs::metadata(path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?
        .len();
    if size > limit {
        return Err(CliError::Input(format!(
            "{}: {size} bytes (at most {limit})",
            path.display()
        )));
    }
    std::fs::read(path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

fn source(path: &std::path::Path, bytes: &[u8]) -> ChainSource {
    ChainSource {
        file: path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        sha256: Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    }
}

/// Runs `loink spheres`.
pub fn run(args: &SpheresArgs) -> Result<(), CliError> {
    if !(args.bulge.is_finite() && args.bulge > 0.0 && args.bulge < 1.0) {
        return Err(CliError::Input(format!(
            "--bulge {} must be in (0, 1) m",
            args.bulge
        )));
    }
    if !(1..=64).contains(&args.max_spheres) {
        return Err(CliError::Input("--max-spheres must be in 1..=64".into()));
    }
    let limit = loink::problem::chain::urdf::MAX_URDF_BYTES as u64;
    let urdf = read(&args.urdf, limit)?;
    let input = |e: loink::LoinkError| CliError::Input(format!("{}: {e}", args.urdf.display()));
    let links = geometry::collision_shapes(&urdf).map_err(input)?;
    let mut skip: Vec<[String; 2]> = Vec::new();
    let mut add_skip = |a: &str, b: &str| {
        let mut pair = [a.to_string(), b.to_string()];
        pair.sort();
        if !skip.contains(&pair) {
            skip.push(pair);
        }
    };
    for (parent, child) in geometry::joined_links(&urdf).map_err(input)? {
        add_skip(&parent, &child);
    }
    let srdf = match &args.srdf {
        Some(path) => {
            let bytes = read(path, limit)?;
            let pairs = geometry::srdf_disabled_pairs(&bytes)
                .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
            for (a, b) in &pairs {
                add_skip(a, b);
            }
            Some(source(path, &bytes))
        }
        None => None,
    };
    let urdf_dir = args
        .urdf
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p.to_path_buf()
            }
        })
        .unwrap_or_else(|| PathBuf::from("."));
    let geometries = links
        .iter()
        .map(|link| {
            shapes::load(&link.shapes, &urdf_dir, &args.mesh_dirs)
                .map_err(|e| CliError::Input(format!("link '{}': {e}", link.link)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    println!("link                      spheres  points  inside   bulge");
    for (link, geometry) in links.iter().zip(&geometries) {
        let (spheres, fit) = fit::fit_link(geometry, args.bulge, args.max_spheres);
        println!(
            "{:<25} {:>7} {:>7} {:>6.1} % {:>5.1} mm",
            link.link,
            spheres.len(),
            fit.points,
            100.0 * fit.inside,
            1000.0 * fit.bulge_m
        );
        out.push(LinkSpheres {
            link: link.link.clone(),
            spheres,
            fit,
        });
    }
    let file = SpheresFile {
        format: FORMAT.into(),
        urdf: source(&args.urdf, &urdf),
        srdf,
        method: format!(
            "each link's surface points (mesh vertices, and samples 8 mm apart) split into slabs or k-means groups, each group's enclosing ball; the fewest spheres (at most {}) with a bulge ≤ {} mm",
            args.max_spheres,
            args.bulge * 1000.0
        ),
        links: out,
        skip,
    };
    let total: usize = file.links.iter().map(|l| l.spheres.len()).sum();
    let json = serde_json::to_string_pretty(&file)
        .map_err(|e| CliError::Internal(format!("cannot write the spheres: {e}")))?;
    std::fs::write(&args.out, json + "\n")
        .map_err(|e| CliError::Input(format!("{}: {e}", args.out.display())))?;
    println!(
        "{} spheres on {} links, {} pairs never checked → {}",
        total,
        file.links.len(),
        file.skip.len(),
        args.out.display()
    );
    Ok(())
}
