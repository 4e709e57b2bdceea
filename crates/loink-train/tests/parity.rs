//! Parity: the training forward pass (burn, f32) equals the inference crate's forward pass
//! (`loink::nn::BiLipNet` on the exported explicit matrices, f64) — relative error ≤ 1e-5 — for
//! an initialised network and for one that was trained for a few epochs, on G and on the
//! surrogate cost ĉ.

use burn::tensor::{Tensor, TensorData};
use clap::Parser;
use loink::artifact::{load_model, Normalisation};
use loink::problem::Problem;

use loink::surrogate::Loink;
use loink_train::train::cayley::values;
use loink_train::train::export::{self, ExportContext};
use loink_train::train::model::{cpu_device, Architecture, LoinkNet};
use loink_train::train::{self as trainer, TrainArgs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PARITY: f64 = 1e-5;

fn relative(a: &[f64], b: &[f64]) -> f64 {
    let diff = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt();
    let scale = b.iter().map(|y| y * y).sum::<f64>().sqrt().max(1e-3);
    diff / scale
}

/// Worst relative errors (G, ĉ) between burn's `net` and the inference crate on `json`, over random x̃.
fn worst_errors(net: &LoinkNet, json: &str, seed: u64) -> (f64, f64) {
    let model = load_model(json).expect("the exported file validates");
    let loink = Loink::from_json(json).expect("the inference crate loads it");
    let norm = model.file().normalisation.clone();
    let n = model.net().dim();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let count = 64;
    let x: Vec<f32> = (0..count * n)
        .map(|_| rng.random_range(-1.5f32..1.5))
        .collect();
    let out = net.forward(Tensor::from_data(
        TensorData::new(x.clone(), [count, n]),
        &cpu_device(),
    ));
    let latent = out.latent.as_ref().expect("these arms are redundant");
    let g = [values(&out.task), values(latent)];
    let (m, k) = (out.task.dims()[1], latent.dims()[1]);
    let cost = values(&out.cost);
    let (mut worst_g, mut worst_c) = (0.0f64, 0.0f64);
    for i in 0..count {
        let xt: Vec<f64> = x[i * n..(i + 1) * n]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        let engine = model.net().forward(&xt).unwrap();
        let mut burn: Vec<f64> = g[0][i * m..(i + 1) * m].to_vec();
        burn.extend_from_slice(&g[1][i * k..(i + 1) * k]);
        worst_g = worst_g.max(relative(&burn, &engine));
        let raw: Vec<f64> = xt
            .iter()
            .enumerate()
            .map(|(j, v)| v * norm.x_scale[j] + norm.x_shift[j])
            .collect();
        let engine_cost = loink.surrogate_cost(&raw).unwrap();
        let burn_cost = cost[i] * norm.cost_scale + norm.cost_shift;
        worst_c = worst_c.max(relative(&[burn_cost], &[engine_cost]));
    }
    (worst_g, worst_c)
}

#[test]
fn initialised_network_matches_the_engine() {
    let problem = Problem::preset("planar4").unwrap();
    let arch = Architecture {
        dof: 4,
        task_dim: 2,
        mu: 0.1,
        nu: 10.0,
        depth: 2,
        hidden: vec![8, 6, 8],
        head_hidden: vec![8],
        metric_eps: 1e-3,
    };
    let net = LoinkNet::new(&arch, &mut ChaCha8Rng::seed_from_u64(11), &cpu_device());
    let norm = Normalisation {
        x_shift: problem.limits().centres(),
        x_scale: vec![1.0; 4],
        y_shift: vec![0.2, -0.1],
        y_scale: vec![0.5, 0.5],
        cost_shift: 1.5,
        cost_scale: 0.7,
    };
    let about = loink::artifact::About::default();
    let ctx = || ExportContext {
        problem: &problem,
        arch: &arch,
        normalisation: &norm,
        metrics: Default::default(),
        seed: 11,
        about: &about,
    };
    for (label, file) in [
        ("exact", export::exact_model_file(&net, ctx())),
        ("rounded", export::model_file(&net, ctx())),
    ] {
        let (g, c) = worst_errors(&net, &export::to_json(&file), 1);
        println!("{label}: worst relative error G {g:.2e}, cost {c:.2e}");
        assert!(g <= PARITY, "{label}: G differs by {g:e}");
        assert!(c <= PARITY, "{label}: ĉ differs by {c:e}");
    }
}

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: TrainArgs,
}

#[test]
fn trained_network_matches_the_engine() {
    let out = std::env::temp_dir().join(format!("loink-parity-{}.json", std::process::id()));
    let argv = [
        "train",
        "--robot",
        "planar3",
        "--samples",
        "3000",
        "--epochs",
        "3",
        "--hidden",
        "8,8",
        "--head-hidden",
        "8",
        "--depth",
        "2",
        "--check-targets",
        "0",
        "--seed",
        "4",
        "--out",
    ];
    let mut argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    argv.push(out.display().to_string());
    let args = Wrapper::parse_from(argv).args;
    let trained = trainer::run(&args).expect("training runs");
    let json = std::fs::read_to_string(&out).unwrap();
    let (g, c) = worst_errors(&trained.net, &json, 2);
    println!("trained: worst relative error G {g:.2e}, cost {c:.2e}");
    assert!(g <= PARITY, "G differs by {g:e}");
    assert!(c <= PARITY, "ĉ differs by {c:e}");
    let _ = std::fs::remove_file(out);
}
