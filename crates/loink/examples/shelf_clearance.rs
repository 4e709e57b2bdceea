//! How clear a results file's answers are under `panda-shelf`'s spheres: the share converged and
//! clear, the median clearance, the full cost J and what touches most often.
//!
//! `cargo run --release -p loink --example shelf_clearance -- RESULTS.csv [more.csv …]`
//! (results of `loink eval` on `panda` or `panda-shelf` targets: columns q1…q6 and status).

use std::collections::HashMap;

use loink::problem::chain::SerialChain;
use loink::problem::Problem;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let problem = Problem::preset("panda-shelf")?;
    let chain = problem
        .kinematics()
        .as_any()
        .downcast_ref::<SerialChain>()
        .ok_or("panda-shelf is a chain")?;
    println!("file | rows | converged and clear (spheres) | median clearance (mm) | median J | most often touching");
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path)?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().ok_or("empty file")?.split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name);
        let qs: Vec<usize> = (1..=6)
            .map(|i| col(&format!("q{i}")).ok_or(format!("no column q{i}")))
            .collect::<Result<_, _>>()?;
        let status = col("status").ok_or("no status column")?;
        let (mut rows, mut clear) = (0, 0);
        let mut distances = Vec::new();
        let mut costs = Vec::new();
        let mut contacts: HashMap<String, usize> = HashMap::new();
        for line in lines {
            let fields: Vec<&str> = line.split(',').collect();
            let q: Vec<f64> = qs
                .iter()
                .map(|&i| fields[i].parse().unwrap_or(f64::NAN))
                .collect();
            rows += 1;
            let Some(c) = chain.clearance(&q) else {
                continue;
            };
            if fields[status] == "converged" && c.is_clear() {
                clear += 1;
            }
            if !c.is_clear() {
                *contacts.entry(c.contact.to_string()).or_default() += 1;
            }
            distances.push(c.distance);
            costs.push(problem.cost().value(&q));
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
        };
        let mut top: Vec<(String, usize)> = contacts.into_iter().collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let touching = top
            .iter()
            .take(2)
            .map(|(what, n)| format!("{what} ({n})"))
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{path} | {rows} | {:.1} % | {:.1} | {:.3} | {touching}",
            100.0 * clear as f64 / rows.max(1) as f64,
            1000.0 * median(&mut distances),
            median(&mut costs)
        );
    }
    Ok(())
}
