//! The address guard: which addresses a job's URL may reach (public ones only, unless
//! `fetch.allow_private_networks`), checked on URLs, redirects and every DNS answer.

use super::*;

/// What kind of address an IP is, for the address guard. Everything but
/// [`AddressClass::Public`] is refused unless private networks are allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressClass {
    /// A globally routable address.
    Public,
    /// `0.0.0.0/8`, `::`.
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918: `10/8`, `172.16/12`, `192.168/16`.
    Private,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// `fc00::/7` (and the deprecated site-local `fec0::/10`).
    UniqueLocal,
    /// Carrier-grade NAT, `100.64/10`.
    SharedAddressSpace,
    /// `224/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// Other special-purpose ranges: `192.0.0/24`, `198.18/15`, `240/4`, `100::/64`,
    /// `2001::/23` (IETF protocol assignments, e.g. Teredo).
    Reserved,
}

impl AddressClass {
    /// Whether connections to this class are allowed without `allow_private_networks`.
    pub fn is_public(self) -> bool {
        self == AddressClass::Public
    }

    /// A short human description ("loopback", "private" …).
    pub fn describe(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::UniqueLocal => "unique-local",
            AddressClass::SharedAddressSpace => "shared (carrier-grade NAT)",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Reserved => "reserved",
        }
    }
}

/// Classifies an address. IPv6 addresses that embed an IPv4 address (IPv4-mapped
/// `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
/// classified by the embedded IPv4 address.
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

pub(super) fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        _ if ip.is_broadcast() => AddressClass::Broadcast,
        (0, _, _) => AddressClass::Unspecified,
        (127, _, _) => AddressClass::Loopback,
        (10, _, _) => AddressClass::Private,
        (172, 16..=31, _) => AddressClass::Private,
        (192, 168, _) => AddressClass::Private,
        (169, 254, _) => AddressClass::LinkLocal,
        (100, 64..=127, _) => AddressClass::SharedAddressSpace,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => AddressClass::Documentation,
        (192, 0, 0) | (198, 18..=19, _) => AddressClass::Reserved,
        (224..=239, _, _) => AddressClass::Multicast,
        (240..=255, _, _) => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

pub(super) fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    if ip.is_unspecified() {
        return AddressClass::Unspecified;
    }
    if ip.is_loopback() {
        return AddressClass::Loopback;
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let s = ip.segments();
    match s[0] {
        0xff00..=0xffff => AddressClass::Multicast,
        0xfe80..=0xfebf => AddressClass::LinkLocal,
        0xfec0..=0xfeff | 0xfc00..=0xfdff => AddressClass::UniqueLocal,
        0x2001 if s[1] == 0x0db8 => AddressClass::Documentation,
        0x3fff if s[1] <= 0x0fff => AddressClass::Documentation,
        0x2001 if s[1] < 0x0200 => AddressClass::Reserved,
        0x0100 if s[1..4] == [0, 0, 0] => AddressClass::Reserved,
        // Everything outside the global unicast range 2000::/3 is reserved.
        0x2000..=0x3fff => AddressClass::Public,
        _ => AddressClass::Reserved,
    }
}

/// The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address.
pub(super) fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let o = ip.octets();
    let tail = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    match s {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0, 0, 0, 0, 0, 0, _, _] => Some(tail),
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => Some(tail),
        [0x2002, ..] => Some(Ipv4Addr::new(o[2], o[3], o[4], o[5])),
        _ => None,
    }
}

/// Decides which addresses may be connected to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressGuard {
    pub(super) allow_private_networks: bool,
    pub(super) exempt: Vec<IpAddr>,
}

impl AddressGuard {
    /// A guard that refuses every non-public address unless `allow_private_networks`.
    pub fn new(allow_private_networks: bool) -> AddressGuard {
        AddressGuard {
            allow_private_networks,
            exempt: Vec::new(),
        }
    }

    /// Also allows this one address even if it is not public (e.g. a known internal mirror,
    /// or the loopback test server).
    pub fn exempt(mut self, ip: IpAddr) -> AddressGuard {
        self.exempt.push(ip);
        self
    }

    /// Whether a connection to `ip` is allowed.
    pub fn permits(&self, ip: IpAddr) -> bool {
        self.allow_private_networks
            || classify(ip).is_public()
            || self.exempt.contains(&ip)
            || self.exempt.contains(&ip.to_canonical())
    }

    /// Checks a URL's host if it is an IP literal (a host name is checked when it resolves).
    pub fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        let ip = match url.host() {
            Some(Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(Host::Ipv6(v6)) => IpAddr::V6(v6),
            _ => return Ok(()),
        };
        if self.permits(ip) {
            Ok(())
        } else {
            Err(FetchError::AddressRefused {
                host: url.host_str().unwrap_or_default().to_owned(),
                addr: ip,
            })
        }
    }
}

/// Parses and checks a URL before anything is sent: it must be absolute, `http` or `https`,
/// have a host, and an IP-literal host must pass the guard.
pub fn check_url(url: &str, guard: &AddressGuard) -> Result<Url, FetchError> {
    let parsed =
        Url::parse(url.trim()).map_err(|e| FetchError::InvalidUrl(format!("{url}: {e}")))?;
    check_target(&parsed, guard)?;
    Ok(parsed)
}

pub(super) fn check_target(url: &Url, guard: &AddressGuard) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::UnsupportedScheme(url.scheme().to_owned()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(FetchError::InvalidUrl(format!("{url}: no host")));
    }
    guard.check_url(url)
}

/// The redirect policy as a pure function: may the client follow a redirect to `next` after
/// `previous` requests (the initial one included) when at most `max_redirects` redirects are
/// allowed? Refuses non-http(s) schemes and IP-literal hosts the guard refuses.
pub fn check_redirect(
    next: &Url,
    previous: usize,
    max_redirects: usize,
    guard: &AddressGuard,
) -> Result<(), FetchError> {
    if previous > max_redirects {
        return Err(FetchError::TooManyRedirects);
    }
    check_target(next, guard)
}

/// A resolver that drops addresses the guard refuses, and fails with
/// [`FetchError::AddressRefused`] when none is left.
pub(super) struct GuardedResolver {
    pub(super) guard: AddressGuard,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = self.guard.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| FetchError::Dns(format!("{host}: {e}")))?
                .collect();
            let (allowed, refused): (Vec<SocketAddr>, Vec<SocketAddr>) =
                resolved.into_iter().partition(|a| guard.permits(a.ip()));
            if allowed.is_empty() {
                return Err(match refused.first() {
                    Some(addr) => FetchError::AddressRefused {
                        host,
                        addr: addr.ip(),
                    },
                    None => FetchError::Dns(format!("{host}: no addresses")),
                }
                .into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}
