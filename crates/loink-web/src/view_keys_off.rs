//! The 3-D view's hash entries in a bundle without the 3-D view (feature `view3d` off): it
//! holds none, and `view`/`axes` in a link are unknown keys (`view_keys.rs` reads them).

use serde::de::{Deserialize, Deserializer, IgnoredAny};
use serde::Serialize;

/// No entries.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct ViewKeys {}

/// Whatever a settings object holds under its key is ignored.
impl<'de> Deserialize<'de> for ViewKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(deserializer)?;
        Ok(ViewKeys {})
    }
}

impl ViewKeys {
    /// Always empty.
    pub fn is_empty(&self) -> bool {
        true
    }

    /// No slice.
    pub fn axes(&self) -> Option<[usize; 2]> {
        None
    }

    /// No keys.
    pub fn owns(_key: &str) -> bool {
        false
    }

    /// Never called ([`Self::owns`] is false).
    pub fn parse_entry(&mut self, key: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown key '{key}'"))
    }

    /// No entries.
    pub fn hash_entries(&self, _parts: &mut Vec<String>) {}
}
