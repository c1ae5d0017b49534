//! deploy/: the compose file, Prometheus config and Kubernetes manifests parse, have their
//! required fields, and agree with tcx's configuration (ports, queue names, env keys).

use std::collections::HashMap;
use std::path::Path;

use serde_yaml::Value;
use tcx::config::Settings;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_docs(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join(path)).expect(path);
    serde_yaml::Deserializer::from_str(&text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap_or_else(|e| panic!("{path}: {e}")))
        .filter(|v: &Value| !v.is_null())
        .collect()
}

fn get<'a>(v: &'a Value, path: &str) -> &'a Value {
    let mut cur = v;
    for key in path.split('.') {
        cur = match key.parse::<usize>() {
            Ok(i) => &cur[i],
            Err(_) => &cur[key],
        };
    }
    cur
}

fn s<'a>(v: &'a Value, path: &str) -> &'a str {
    get(v, path)
        .as_str()
        .unwrap_or_else(|| panic!("{path} is not a string in {v:?}"))
}

fn metrics_port() -> u16 {
    Settings::default()
        .metrics
        .address
        .parse::<std::net::SocketAddr>()
        .expect("default metrics address")
        .port()
}

#[test]
fn compose_has_broker_workers_and_prometheus_with_limits() {
    let docs = yaml_docs("deploy/docker-compose.yml");
    assert_eq!(docs.len(), 1);
    let services = get(&docs[0], "services");
    assert!(s(services, "rabbitmq.image").contains("management"));
    let ports = get(services, "rabbitmq.ports")
        .as_sequence()
        .expect("ports");
    assert!(ports.iter().any(|p| p.as_str() == Some("15672:15672")));
    let worker = get(services, "worker");
    assert_eq!(s(worker, "command.0"), "worker");
    assert_eq!(s(worker, "build.dockerfile"), "deploy/Dockerfile");
    assert!(get(worker, "deploy.replicas").as_u64().unwrap_or(0) >= 2);
    assert!(s(worker, "environment.TCX__AMQP__URL").starts_with("amqp://"));
    assert!(s(services, "prometheus.volumes.0").contains("prometheus.yml"));
    for (name, svc) in services.as_mapping().expect("services") {
        if get(svc, "profiles").is_sequence() {
            continue;
        }
        let limits = get(svc, "deploy.resources.limits");
        assert!(
            limits["cpus"].is_string() && limits["memory"].is_string(),
            "{name:?} has resource limits"
        );
        assert!(
            get(svc, "image").is_string() || get(svc, "build").is_mapping(),
            "{name:?} has an image"
        );
    }
    // Every TCX__ variable is a valid setting.
    let env: HashMap<String, String> = get(worker, "environment")
        .as_mapping()
        .expect("environment")
        .iter()
        .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.as_str()?.to_owned())))
        .filter(|(k, _)| k.starts_with("TCX__"))
        .collect();
    Settings::load_with_env(None, Some(env)).expect("compose environment is valid");
}

#[test]
fn prometheus_scrapes_the_worker_metrics_port() {
    let docs = yaml_docs("deploy/prometheus.yml");
    let job = get(&docs[0], "scrape_configs.0");
    assert_eq!(s(job, "metrics_path"), "/metrics");
    assert_eq!(
        get(job, "dns_sd_configs.0.port").as_u64(),
        Some(u64::from(metrics_port()))
    );
}

#[test]
fn kubernetes_manifests_have_required_fields() {
    let dir = root().join("deploy/k8s");
    let mut kinds: HashMap<String, Value> = HashMap::new();
    for entry in std::fs::read_dir(&dir).expect("deploy/k8s") {
        let path = entry.expect("entry").path();
        let rel = format!(
            "deploy/k8s/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        for doc in yaml_docs(&rel) {
            for field in ["apiVersion", "kind", "metadata.name"] {
                assert!(get(&doc, field).is_string(), "{rel}: {field} missing");
            }
            kinds.insert(s(&doc, "kind").to_owned(), doc);
        }
    }
    for kind in [
        "Deployment",
        "ConfigMap",
        "Service",
        "ScaledObject",
        "TriggerAuthentication",
        "Secret",
    ] {
        assert!(kinds.contains_key(kind), "{kind} manifest missing");
    }
    let settings = Settings::default();

    let deployment = &kinds["Deployment"];
    assert_eq!(s(deployment, "apiVersion"), "apps/v1");
    let labels = get(deployment, "spec.template.metadata.labels");
    for (k, v) in get(deployment, "spec.selector.matchLabels")
        .as_mapping()
        .expect("matchLabels")
    {
        assert_eq!(&labels[k], v, "selector matches the pod labels");
    }
    let pod = get(deployment, "spec.template.spec");
    let grace = get(pod, "terminationGracePeriodSeconds")
        .as_u64()
        .unwrap_or(0);
    let container = get(pod, "containers.0");
    assert_eq!(s(container, "args.0"), "worker");
    for path in [
        "resources.limits.cpu",
        "resources.limits.memory",
        "resources.requests.cpu",
        "resources.requests.memory",
    ] {
        assert!(get(container, path).is_string(), "{path} missing");
    }
    assert_eq!(s(container, "livenessProbe.httpGet.path"), "/healthz");
    assert_eq!(s(container, "readinessProbe.httpGet.path"), "/readyz");
    assert_eq!(
        get(container, "ports.0.containerPort").as_u64(),
        Some(u64::from(metrics_port()))
    );
    assert_eq!(
        s(container, "env.0.name"),
        "TCX__AMQP__URL",
        "the AMQP URL comes from the Secret"
    );
    assert_eq!(
        s(container, "envFrom.0.configMapRef.name"),
        s(&kinds["ConfigMap"], "metadata.name")
    );

    let config: HashMap<String, String> = get(&kinds["ConfigMap"], "data")
        .as_mapping()
        .expect("data")
        .iter()
        .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.as_str()?.to_owned())))
        .collect();
    let tcx_env: HashMap<String, String> = config
        .iter()
        .filter(|(k, _)| k.starts_with("TCX__"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert!(
        config
            .keys()
            .all(|k| k.starts_with("TCX__") || k == "RUST_LOG"),
        "{config:?}"
    );
    let configured = Settings::load_with_env(None, Some(tcx_env)).expect("ConfigMap is valid");
    assert!(
        grace > configured.worker.drain_timeout_secs,
        "grace period {grace} s must exceed the drain timeout"
    );

    let service = &kinds["Service"];
    assert_eq!(
        get(service, "spec.selector"),
        get(deployment, "spec.selector.matchLabels")
    );

    let scaled = &kinds["ScaledObject"];
    assert_eq!(s(scaled, "apiVersion"), "keda.sh/v1alpha1");
    assert_eq!(
        s(scaled, "spec.scaleTargetRef.name"),
        s(deployment, "metadata.name")
    );
    let trigger = get(scaled, "spec.triggers.0");
    assert_eq!(s(trigger, "type"), "rabbitmq");
    assert_eq!(s(trigger, "metadata.queueName"), settings.amqp.jobs_queue);
    assert_eq!(s(trigger, "metadata.mode"), "QueueLength");
    assert!(get(scaled, "spec.maxReplicaCount").as_u64().unwrap_or(0) > 1);
    assert_eq!(
        s(trigger, "authenticationRef.name"),
        s(&kinds["TriggerAuthentication"], "metadata.name")
    );
}

#[test]
fn dockerfile_is_multi_stage_and_runs_the_worker() {
    let text = std::fs::read_to_string(root().join("deploy/Dockerfile")).expect("Dockerfile");
    assert!(text.matches("\nFROM ").count() + usize::from(text.starts_with("FROM ")) >= 2);
    assert!(text.contains("cargo build --release --locked"));
    assert!(text.contains("CMD [\"worker\"]"));
    assert!(text.contains(&format!("EXPOSE {}", metrics_port())));
}
