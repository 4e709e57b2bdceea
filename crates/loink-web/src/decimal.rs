//! Decimal numbers typed into links and controls (`target=0.6,0.3`, `sigma=0.25`) → `f64`.
//!
//! The text must be a plain decimal: an optional sign, digits with an optional fraction, an
//! optional exponent (`-1.25e-3`); no `inf`, `NaN`, hex, or blanks inside. In the browser the
//! checked text is then converted by the engine's own correctly rounded `parseFloat`: core's
//! float parser brings about 12 KB of gzipped tables and code into the download for a handful
//! of link values. Natively `str::parse` converts; both give the nearest `f64`.

/// The value of link entry `key=text`: a plain decimal within [`lo`, `hi`], or the message
/// saying why not.
pub fn parse_number(key: &str, text: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let v = parse_decimal(text).ok_or_else(|| format!("{key}='{text}' is not a number"))?;
    if !v.is_finite() || v < lo || v > hi {
        return Err(format!("{key}={text} is outside [{lo}, {hi}]"));
    }
    Ok(v)
}

/// The value of link entry `key=text`: a whole number up to `max`, or the message saying why
/// not.
pub fn parse_count(key: &str, text: &str, max: u64) -> Result<u64, String> {
    let v: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{key}='{text}' is not a whole number"))?;
    if v > max {
        return Err(format!("{key}={v} is above {max}"));
    }
    Ok(v)
}

/// Shortest text that parses back to the same f64 (Rust's `Display` is round-trip exact).
pub fn number(v: f64) -> String {
    // −0.0 prints as "-0"; a link does not need the sign of zero.
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v}")
    }
}

/// Longest accepted text (a link value, not a data format).
const MAX_LEN: usize = 64;

/// The value of `text` (surrounding blanks ignored) if it is a plain decimal number.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let text = text.trim();
    if !is_plain_decimal(text) {
        return None;
    }
    #[cfg(target_arch = "wasm32")]
    let value = js_sys::parse_float(text);
    #[cfg(not(target_arch = "wasm32"))]
    let value = text.parse::<f64>().ok()?;
    Some(value)
}

/// `[+-]? digits [. digits]? ([eE] [+-]? digits)?` with at least one mantissa digit
/// (`.5` and `5.` are accepted, as `str::parse` does).
fn is_plain_decimal(text: &str) -> bool {
    if text.is_empty() || text.len() > MAX_LEN {
        return false;
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if matches!(bytes[0], b'+' | b'-') {
        i += 1;
    }
    let mut mantissa = digits(&mut i);
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    if i < bytes.len() && matches!(bytes[i], b'e' | b'E') {
        i += 1;
        if i < bytes.len() && matches!(bytes[i], b'+' | b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals_parse_to_the_nearest_f64() {
        for (text, value) in [
            ("0.6", 0.6),
            ("-0.3", -0.3),
            ("+2", 2.0),
            (" 1.25e-3 ", 1.25e-3),
            ("5.", 5.0),
            (".5", 0.5),
            ("1E2", 100.0),
            ("0.1000000000000000055511151231257827", 0.1),
        ] {
            assert_eq!(parse_decimal(text), Some(value), "{text:?}");
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for text in [
            "", " ", "-", ".", "e5", "1e", "1e+", "inf", "NaN", "infinity", "0x10", "1_000", "1,5",
            "1 2", "--1", "1..2", "1.2.3", "١", "1e5x",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
        assert_eq!(parse_decimal(&"1".repeat(65)), None, "over the length cap");
    }
}
