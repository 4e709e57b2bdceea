//! The numeric rows of a results CSV (`loink eval`, the IPOPT scripts), shared by the shelf
//! examples: the header skipped, every field a number (NaN for text such as the status).

/// Every row after the header, each field parsed as a number (NaN where it is not one).
pub fn rows(path: &str) -> Result<Vec<Vec<f64>>, Box<dyn std::error::Error>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|v| v.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect())
}
