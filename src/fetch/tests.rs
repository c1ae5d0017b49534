use super::*;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

#[test]
fn non_public_addresses_are_classified() {
    for (addr, class) in [
        ("127.0.0.1", AddressClass::Loopback),
        ("127.255.0.9", AddressClass::Loopback),
        ("10.1.2.3", AddressClass::Private),
        ("172.16.0.1", AddressClass::Private),
        ("172.31.255.254", AddressClass::Private),
        ("192.168.1.1", AddressClass::Private),
        ("169.254.169.254", AddressClass::LinkLocal),
        ("100.64.0.1", AddressClass::SharedAddressSpace),
        ("100.127.255.255", AddressClass::SharedAddressSpace),
        ("0.0.0.0", AddressClass::Unspecified),
        ("0.1.2.3", AddressClass::Unspecified),
        ("224.0.0.1", AddressClass::Multicast),
        ("255.255.255.255", AddressClass::Broadcast),
        ("192.0.2.10", AddressClass::Documentation),
        ("198.51.100.1", AddressClass::Documentation),
        ("203.0.113.7", AddressClass::Documentation),
        ("198.18.0.1", AddressClass::Reserved),
        ("240.0.0.1", AddressClass::Reserved),
        ("::1", AddressClass::Loopback),
        ("::", AddressClass::Unspecified),
        ("::ffff:127.0.0.1", AddressClass::Loopback),
        ("::ffff:10.0.0.1", AddressClass::Private),
        ("::ffff:169.254.169.254", AddressClass::LinkLocal),
        ("::127.0.0.1", AddressClass::Loopback),
        ("64:ff9b::192.168.0.1", AddressClass::Private),
        ("2002:c0a8:0101::1", AddressClass::Private),
        ("fc00::1", AddressClass::UniqueLocal),
        ("fd12:3456::1", AddressClass::UniqueLocal),
        ("fe80::1", AddressClass::LinkLocal),
        ("ff02::1", AddressClass::Multicast),
        ("2001:db8::1", AddressClass::Documentation),
        ("3fff::1", AddressClass::Documentation),
        ("2001::1", AddressClass::Reserved),
        ("100::1", AddressClass::Reserved),
    ] {
        assert_eq!(classify(ip(addr)), class, "{addr}");
        assert!(
            !AddressGuard::new(false).permits(ip(addr)),
            "{addr} must be refused"
        );
        assert!(
            AddressGuard::new(true).permits(ip(addr)),
            "{addr} allowed when configured"
        );
    }
}

#[test]
fn public_addresses_are_allowed() {
    for addr in [
        "8.8.8.8",
        "1.1.1.1",
        "172.15.255.255",
        "172.32.0.1",
        "100.63.255.255",
        "100.128.0.1",
        "193.99.144.80",
        "2001:4860::8888",
        "2a00:1450:4001:830::200e",
        "::ffff:8.8.8.8",
        "64:ff9b::8.8.8.8",
    ] {
        assert_eq!(classify(ip(addr)), AddressClass::Public, "{addr}");
        assert!(AddressGuard::new(false).permits(ip(addr)), "{addr}");
    }
}

#[test]
fn exempt_addresses_pass_the_guard() {
    let guard = AddressGuard::new(false).exempt(ip("127.0.0.1"));
    assert!(guard.permits(ip("127.0.0.1")));
    assert!(guard.permits(ip("::ffff:127.0.0.1")));
    assert!(!guard.permits(ip("127.0.0.2")));
    assert!(!guard.permits(ip("::1")));
}

#[test]
fn urls_are_checked_before_sending() {
    let guard = AddressGuard::new(false);
    assert!(check_url("https://shop.example.de/agb", &guard).is_ok());
    assert_eq!(
        check_url("not a url", &guard).unwrap_err().kind(),
        "invalid_url"
    );
    assert_eq!(
        check_url("/agb.html", &guard).unwrap_err().kind(),
        "invalid_url"
    );
    assert_eq!(
        check_url("ftp://shop.example/agb", &guard).unwrap_err(),
        FetchError::UnsupportedScheme("ftp".into())
    );
    assert_eq!(
        check_url("file:///etc/passwd", &guard).unwrap_err().kind(),
        "unsupported_scheme"
    );
    for (u, host, addr) in [
        ("http://127.0.0.1:8080/x", "127.0.0.1", "127.0.0.1"),
        ("http://[::1]/", "[::1]", "::1"),
        (
            "http://[::ffff:7f00:1]/",
            "[::ffff:7f00:1]",
            "::ffff:127.0.0.1",
        ),
        // WHATWG URL parsing turns these spellings into IPv4 literals.
        ("http://0x7f.0.0.1/", "127.0.0.1", "127.0.0.1"),
        ("http://2130706433/", "127.0.0.1", "127.0.0.1"),
        (
            "http://169.254.169.254/latest/meta-data",
            "169.254.169.254",
            "169.254.169.254",
        ),
    ] {
        let err = check_url(u, &guard).unwrap_err();
        assert_eq!(
            err,
            FetchError::AddressRefused {
                host: host.into(),
                addr: ip(addr)
            },
            "{u}"
        );
        assert!(!err.retryable());
        assert!(check_url(u, &AddressGuard::new(true)).is_ok(), "{u}");
    }
    let msg = check_url("http://10.0.0.1/", &guard)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("10.0.0.1") && msg.contains("private"), "{msg}");
}

#[test]
fn redirect_policy_decisions() {
    let guard = AddressGuard::new(false);
    let public = url("https://www.example.com/agb");
    assert!(check_redirect(&public, 1, 5, &guard).is_ok());
    assert!(check_redirect(&public, 5, 5, &guard).is_ok());
    assert_eq!(
        check_redirect(&public, 6, 5, &guard),
        Err(FetchError::TooManyRedirects)
    );
    assert_eq!(
        check_redirect(&public, 1, 0, &guard),
        Err(FetchError::TooManyRedirects)
    );
    for private in [
        "http://127.0.0.1/admin",
        "http://10.0.0.5/",
        "http://192.168.0.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://[fc00::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://100.64.0.1/",
    ] {
        let err = check_redirect(&url(private), 1, 5, &guard).unwrap_err();
        assert_eq!(err.kind(), "address_refused", "{private}");
        assert!(check_redirect(&url(private), 1, 5, &AddressGuard::new(true)).is_ok());
    }
    for scheme in [
        "file:///etc/passwd",
        "ftp://example.com/",
        "gopher://example.com/",
    ] {
        let err = check_redirect(&url(scheme), 1, 5, &AddressGuard::new(true)).unwrap_err();
        assert_eq!(err.kind(), "unsupported_scheme", "{scheme}");
    }
}

#[test]
fn kinds_and_retryability() {
    let cases = [
        (FetchError::InvalidUrl("x".into()), "invalid_url", false),
        (
            FetchError::UnsupportedScheme("ftp".into()),
            "unsupported_scheme",
            false,
        ),
        (
            FetchError::AddressRefused {
                host: "localhost".into(),
                addr: ip("127.0.0.1"),
            },
            "address_refused",
            false,
        ),
        (FetchError::Dns("x".into()), "dns", true),
        (FetchError::Connect("x".into()), "connect", true),
        (FetchError::Timeout, "timeout", true),
        (FetchError::TooManyRedirects, "too_many_redirects", false),
        (FetchError::HttpStatus(404), "http_status", false),
        (FetchError::HttpStatus(410), "http_status", false),
        (FetchError::HttpStatus(408), "http_status", true),
        (FetchError::HttpStatus(429), "http_status", true),
        (FetchError::HttpStatus(500), "http_status", true),
        (FetchError::HttpStatus(503), "http_status", true),
        (
            FetchError::NotHtml("application/pdf".into()),
            "not_html",
            false,
        ),
        (FetchError::TooLarge { limit: 10 }, "too_large", false),
        (FetchError::Body("reset".into()), "body", true),
        (FetchError::Client("x".into()), "client", false),
    ];
    for (err, kind, retryable) in cases {
        assert_eq!(err.kind(), kind, "{err}");
        assert_eq!(err.retryable(), retryable, "{err}");
    }
}

#[test]
fn content_type_verdicts() {
    use ContentTypeVerdict::*;
    assert_eq!(content_type_verdict(Some("text/html; charset=utf-8")), Html);
    assert_eq!(content_type_verdict(Some("TEXT/HTML")), Html);
    assert_eq!(content_type_verdict(Some("application/xhtml+xml")), Html);
    assert!(matches!(content_type_verdict(None), Sniff(_)));
    assert!(matches!(content_type_verdict(Some("")), Sniff(_)));
    assert_eq!(
        content_type_verdict(Some("text/plain")),
        Sniff("text/plain".into())
    );
    assert!(matches!(
        content_type_verdict(Some("application/octet-stream")),
        Sniff(_)
    ));
    assert_eq!(
        content_type_verdict(Some("application/pdf")),
        Reject("application/pdf".into())
    );
    assert!(matches!(content_type_verdict(Some("image/png")), Reject(_)));
    assert!(matches!(
        content_type_verdict(Some("application/json")),
        Reject(_)
    ));
}

#[test]
fn client_builds_from_default_like_settings() {
    let settings = FetchSettings {
        connect_timeout_secs: 5,
        timeout_secs: 20,
        max_redirects: 5,
        max_body_bytes: 1 << 20,
        user_agent: "tcx-test".into(),
        allow_private_networks: false,
        resolve: Vec::new(),
    };
    assert!(Fetcher::new(&settings).is_ok());
    let bad = FetchSettings {
        user_agent: "bad\nagent".into(),
        ..settings
    };
    assert_eq!(Fetcher::new(&bad).unwrap_err().kind(), "client");
}
