//! Training recipes: `loink train --recipe recipes/NAME.toml [--set KEY=VALUE …]`. One checked-in
//! TOML file per shipped model holds everything that trains it:
//!
//! ```toml
//! trainer = "loink"                      # --kind: loink, mse, mdn or flow
//! problem = "planar3"                    # a preset (or a URDF: urdf/base/tip in [options])
//! description = "the benchmark network"  # the card's one line
//! out = "web/models/planar3.json"        # the file the recipe makes
//!
//! [options]                              # every `loink train` flag, by its name
//! epochs = 40
//! hidden = [32, 32, 32, 32]              # a list is written comma-separated
//! seed = 1
//!
//! [data]                                 # optional: train from a data file `loink data` makes
//! count = 200000                         # rows (drawn uniformly in the box, `loink data`)
//! seed = 1
//!
//! [compact]                              # optional: the page's copy, fewer digits per weight
//! digits = 6                             # (`loink compact`; the full-precision file is kept
//! orthogonal-digits = 6                  # in target/NAME.f32.json)
//!
//! [distill]                              # optional, last: the section head that starts a
//! hidden = [64, 64, 64]                  # cold inverse (`loink distill` on the file `out`)
//! samples = 400000
//! epochs = 120
//! seed = 1
//! ```
//!
//! The recipe becomes a `loink train` command line, parsed and checked like any other (an option
//! its trainer does not read exits 2 naming it); `--set` replaces or adds one entry (`--set
//! epochs=2`, `--set data.count=1000`). The data file is made when missing
//! (`target/data/PROBLEM-COUNT-SEED.csv`). The model's card records the recipe's path and SHA-256.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::cli::CliError;

/// Largest recipe file read (bytes).
const MAX_RECIPE_BYTES: u64 = 64 * 1024;

/// A recipe as loaded: the command line it stands for and what surrounds the training.
#[derive(Debug, Clone, PartialEq)]
pub struct Recipe {
    /// The path as given and the file's SHA-256 (the card records both).
    pub identity: (String, String),
    /// `--kind`, `--problem`, `--description` and every option, as `(flag name, value)`; a
    /// value of `None` is a switch.
    pub flags: BTreeMap<String, Option<String>>,
    /// The model file the recipe makes.
    pub out: PathBuf,
    /// The data file to train from, when the recipe names one.
    pub data: Option<DataSpec>,
    /// The page's copy, when the recipe compacts the trained file.
    pub compact: Option<CompactSpec>,
    /// The section head fitted last, when the recipe names one.
    pub distill: Option<DistillSpec>,
}

/// `loink distill`'s settings for a recipe.
#[derive(Debug, Clone, PartialEq)]
pub struct DistillSpec {
    /// Hidden widths of the head.
    pub hidden: Vec<usize>,
    /// Targets drawn for the fit.
    pub samples: usize,
    /// Epochs at most.
    pub epochs: usize,
    /// Seed.
    pub seed: u64,
}

/// The rows `loink data` draws for a recipe.
#[derive(Debug, Clone, PartialEq)]
pub struct DataSpec {
    /// Rows.
    pub count: usize,
    /// The draws' seed.
    pub seed: u64,
    /// The hand cone (degrees) of a task that turns the hand.
    pub cone: Option<f64>,
}

/// `loink compact`'s digits for a recipe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompactSpec {
    /// Significant digits per weight.
    pub digits: usize,
    /// Significant digits of the orthogonal layers' R.
    pub orthogonal_digits: Option<usize>,
}

/// The recipe's path as given and the file's SHA-256 (lower-case hex).
pub fn identity(path: &Path) -> Result<(String, String), CliError> {
    let bytes = read(path)?;
    let sha: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((path.display().to_string(), sha))
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    let cannot =
        |e: std::io::Error| CliError::Input(format!("cannot read recipe {}: {e}", path.display()));
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > MAX_RECIPE_BYTES {
        return Err(CliError::Input(format!(
            "recipe {}: {size} bytes, over {MAX_RECIPE_BYTES}",
            path.display()
        )));
    }
    std::fs::read(path).map_err(cannot)
}

/// A TOML value as a flag's text: numbers and strings as written, a list comma-separated, a
/// boolean a switch (`None` for true; false leaves the flag out).
fn flag_text(key: &str, value: &toml::Value) -> Result<Option<Option<String>>, String> {
    Ok(match value {
        toml::Value::String(s) => Some(Some(s.clone())),
        toml::Value::Integer(i) => Some(Some(i.to_string())),
        toml::Value::Float(f) => Some(Some(f.to_string())),
        toml::Value::Boolean(true) => Some(None),
        toml::Value::Boolean(false) => None,
        toml::Value::Array(items) => {
            let parts: Result<Vec<String>, String> = items
                .iter()
                .map(|item| match flag_text(key, item)? {
                    Some(Some(text)) => Ok(text),
                    _ => Err(format!("'{key}': a list holds numbers or words")),
                })
                .collect();
            Some(Some(parts?.join(",")))
        }
        _ => {
            return Err(format!(
                "'{key}': a value must be a number, a word or a list"
            ))
        }
    })
}

impl Recipe {
    /// Loads `path` and applies `sets` (`KEY=VALUE`, see the module docs).
    pub fn load(path: &Path, sets: &[String]) -> Result<Recipe, CliError> {
        let bad = |why: String| CliError::Input(format!("recipe {}: {why}", path.display()));
        let bytes = read(path)?;
        let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".into()))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let mut flags = BTreeMap::new();
        let (mut out, mut data, mut compact, mut distill) = (None, None, None, None);
        for (key, value) in &table {
            match (key.as_str(), value) {
                ("trainer" | "problem" | "description", toml::Value::String(s)) => {
                    let flag = if key == "trainer" { "kind" } else { key.as_str() };
                    flags.insert(flag.to_string(), Some(s.clone()));
                }
                ("out", toml::Value::String(s)) => out = Some(PathBuf::from(s)),
                ("options", toml::Value::Table(options)) => {
                    for (name, value) in options {
                        if ["kind", "out", "recipe", "set", "data"].contains(&name.as_str()) {
                            return Err(bad(format!(
                                "'{name}' is not an option of [options] (the recipe's own keys say it)"
                            )));
                        }
                        if let Some(text) = flag_text(name, value).map_err(&bad)? {
                            flags.insert(name.clone(), text);
                        }
                    }
                }
                ("data", toml::Value::Table(t)) => data = Some(data_spec(t).map_err(&bad)?),
                ("compact", toml::Value::Table(t)) => {
                    compact = Some(compact_spec(t).map_err(&bad)?)
                }
                ("distill", toml::Value::Table(t)) => {
                    distill = Some(distill_spec(t).map_err(&bad)?)
                }
                _ => {
                    return Err(bad(format!(
                        "unknown entry '{key}' (a recipe has trainer, problem, description, out, [options], [data], [compact], [distill])"
                    )))
                }
            }
        }
        let mut recipe = Recipe {
            identity: identity(path)?,
            flags,
            out: out.ok_or_else(|| bad("no 'out': the model file it makes".into()))?,
            data,
            compact,
            distill,
        };
        for set in sets {
            recipe.set(set).map_err(&bad)?;
        }
        if !recipe.flags.contains_key("kind") {
            return Err(bad("no 'trainer' (loink, mse, mdn or flow)".into()));
        }
        Ok(recipe)
    }

    /// Applies one `KEY=VALUE`.
    fn set(&mut self, entry: &str) -> Result<(), String> {
        let (key, value) = entry
            .split_once('=')
            .ok_or_else(|| format!("--set '{entry}' is not KEY=VALUE"))?;
        let (key, value) = (key.trim(), value.trim());
        let number = |what: &str| -> Result<f64, String> {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("--set {key}: '{value}' is not a {what}"))
        };
        match key {
            "out" => self.out = PathBuf::from(value),
            "trainer" => {
                self.flags.insert("kind".into(), Some(value.into()));
            }
            "data.count" | "data.seed" | "data.cone" => {
                let data = self.data.get_or_insert(DataSpec {
                    count: 0,
                    seed: 1,
                    cone: None,
                });
                match key {
                    "data.count" => data.count = number("count")? as usize,
                    "data.seed" => data.seed = number("seed")? as u64,
                    _ => data.cone = Some(number("cone in degrees")?),
                }
            }
            "compact.digits" => {
                let digits = number("digit count")? as usize;
                match &mut self.compact {
                    Some(c) => c.digits = digits,
                    None => {
                        self.compact = Some(CompactSpec {
                            digits,
                            orthogonal_digits: None,
                        })
                    }
                }
            }
            _ if key.is_empty() || key.contains('.') => {
                return Err(format!("--set '{key}' names no entry of a recipe"));
            }
            _ => {
                self.flags.insert(key.replace('_', "-"), Some(value.into()));
            }
        }
        Ok(())
    }

    /// The file the training writes: the recipe's `out`, or with `[compact]` the
    /// full-precision file `target/NAME.f32.json` the page's copy is made from.
    pub fn trained_file(&self) -> PathBuf {
        match self.compact {
            None => self.out.clone(),
            Some(_) => {
                let stem = self
                    .out
                    .file_stem()
                    .map_or("model".into(), |s| s.to_string_lossy().into_owned());
                PathBuf::from("target").join(format!("{stem}.f32.json"))
            }
        }
    }

    /// The data file of `[data]`: `target/data/PROBLEM-COUNT-SEED[-coneDEG].csv`.
    pub fn data_file(&self) -> Option<PathBuf> {
        let data = self.data.as_ref()?;
        let problem = self
            .flags
            .get("problem")
            .cloned()
            .flatten()
            .unwrap_or_else(|| "data".into());
        let cone = data.cone.map_or(String::new(), |c| format!("-cone{c}"));
        Some(
            PathBuf::from("target/data")
                .join(format!("{problem}-{}-{}{cone}.csv", data.count, data.seed)),
        )
    }

    /// The `loink train` command line the recipe stands for (without the program's name).
    pub fn train_args(&self) -> Vec<String> {
        let mut args = vec!["train".to_string()];
        for (flag, value) in &self.flags {
            match value {
                None => args.push(format!("--{flag}")),
                Some(text) => args.push(format!("--{flag}={text}")),
            }
        }
        if let Some(path) = self.data_file() {
            args.push(format!("--data={}", path.display()));
        }
        args.push(format!("--out={}", self.trained_file().display()));
        args
    }
}

fn data_spec(table: &toml::Table) -> Result<DataSpec, String> {
    let mut spec = DataSpec {
        count: 0,
        seed: 1,
        cone: None,
    };
    for (key, value) in table {
        match (key.as_str(), value) {
            ("count", toml::Value::Integer(n)) if *n > 0 => spec.count = *n as usize,
            ("seed", toml::Value::Integer(n)) if *n >= 0 => spec.seed = *n as u64,
            ("cone", toml::Value::Float(c)) => spec.cone = Some(*c),
            ("cone", toml::Value::Integer(c)) => spec.cone = Some(*c as f64),
            _ => return Err(format!("[data] '{key}' (it takes count, seed and cone)")),
        }
    }
    if spec.count == 0 {
        return Err("[data] needs a count of rows".into());
    }
    Ok(spec)
}

fn compact_spec(table: &toml::Table) -> Result<CompactSpec, String> {
    let mut spec = CompactSpec {
        digits: 0,
        orthogonal_digits: None,
    };
    for (key, value) in table {
        match (key.as_str(), value) {
            ("digits", toml::Value::Integer(n)) if *n > 0 => spec.digits = *n as usize,
            ("orthogonal-digits", toml::Value::Integer(n)) if *n > 0 => {
                spec.orthogonal_digits = Some(*n as usize)
            }
            _ => {
                return Err(format!(
                    "[compact] '{key}' (it takes digits and orthogonal-digits)"
                ))
            }
        }
    }
    if spec.digits == 0 {
        return Err("[compact] needs digits".into());
    }
    Ok(spec)
}

fn distill_spec(table: &toml::Table) -> Result<DistillSpec, String> {
    let defaults = crate::distill::DistillArgs::defaults();
    let mut spec = DistillSpec {
        hidden: defaults.hidden,
        samples: defaults.samples,
        epochs: defaults.epochs,
        seed: defaults.seed,
    };
    let count = |v: &toml::Value| match v {
        toml::Value::Integer(n) if *n > 0 => Some(*n as usize),
        _ => None,
    };
    for (key, value) in table {
        match (key.as_str(), value) {
            ("hidden", toml::Value::Array(widths)) => {
                spec.hidden = widths
                    .iter()
                    .map(count)
                    .collect::<Option<Vec<_>>>()
                    .filter(|w| !w.is_empty())
                    .ok_or("[distill] hidden: a list of positive widths")?;
            }
            ("samples", v) => spec.samples = count(v).ok_or("[distill] samples: a count")?,
            ("epochs", v) => spec.epochs = count(v).ok_or("[distill] epochs: a count")?,
            ("seed", toml::Value::Integer(n)) if *n >= 0 => spec.seed = *n as u64,
            _ => {
                return Err(format!(
                    "[distill] '{key}' (it takes hidden, samples, epochs and seed)"
                ))
            }
        }
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("loink-recipe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_recipe_is_a_command_line_and_set_changes_it() {
        let path = write(
            "r.toml",
            "trainer = \"loink\"\nproblem = \"planar3\"\ndescription = \"d\"\nout = \"web/models/x.json\"\n\
             [options]\nepochs = 40\nhidden = [32, 32]\ntask-weight = 0.5\nregion-lower = [-1.5, 0.0]\n\
             [data]\ncount = 100\nseed = 3\n[compact]\ndigits = 5\n",
        );
        let recipe = Recipe::load(&path, &["epochs=2".into(), "data.count=50".into()]).unwrap();
        let args = recipe.train_args();
        assert!(args.contains(&"--epochs=2".to_string()), "{args:?}");
        assert!(args.contains(&"--hidden=32,32".to_string()));
        assert!(
            args.contains(&"--region-lower=-1.5,0".to_string()),
            "{args:?}"
        );
        assert!(args.contains(&"--kind=loink".to_string()));
        assert!(args.contains(&"--data=target/data/planar3-50-3.csv".to_string()));
        assert!(args.contains(&"--out=target/x.f32.json".to_string()));
        assert_eq!(recipe.out, PathBuf::from("web/models/x.json"));
        assert_eq!(recipe.identity.1.len(), 64);
    }

    #[test]
    fn a_bad_recipe_says_what_is_wrong() {
        let no_out = write("a.toml", "trainer = \"loink\"\n");
        assert!(
            matches!(Recipe::load(&no_out, &[]), Err(CliError::Input(m)) if m.contains("'out'"))
        );
        let unknown = write("b.toml", "trainer = \"loink\"\nout = \"x\"\nepochs = 3\n");
        assert!(
            matches!(Recipe::load(&unknown, &[]), Err(CliError::Input(m)) if m.contains("'epochs'"))
        );
        let good = write("c.toml", "trainer = \"loink\"\nout = \"x\"\n");
        assert!(Recipe::load(&good, &["no-equals".into()]).is_err());
        assert!(Recipe::load(&good, &["data.count=-3".into()]).is_err());
        let broken = write("d.toml", "trainer = \n");
        assert!(Recipe::load(&broken, &[]).is_err());
    }
}
