#if os(Linux)
/// The files one host's daemons read: a D-Bus system bus configuration, an Avahi daemon
/// configuration, and the script that runs both as the host's first process.
enum HostFiles {
    /// A system bus that listens only on `socket`, activates nothing, and lets every
    /// connection own any name and call anything (only this host's programs can reach it).
    static func busConfiguration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    /// An Avahi daemon with its own host name, on the host's own links only, IPv4 only,
    /// without wide-area DNS-SD or the machine's static services' extras.
    static func avahiConfiguration(hostName: String, interfaces: [String]) -> String {
        """
        [server]
        host-name=\(hostName)
        use-ipv4=yes
        use-ipv6=no
        allow-interfaces=\(interfaces.joined(separator: ","))
        enable-dbus=yes
        ratelimit-interval-usec=1000000
        ratelimit-burst=1000

        [wide-area]
        enable-wide-area=no

        [publish]
        publish-hinfo=no
        publish-workstation=no
        publish-aaaa-on-ipv4=no

        [reflector]
        enable-reflector=no

        [rlimits]

        """
    }

    /// The host's first process (pid 1 of its own PID namespace, in its own mount namespace),
    /// run by `/bin/sh -c` with the host's folder as `$1`. It mounts a tmpfs over `/run` (the
    /// Avahi daemon's pid file and socket live in `/run/avahi-daemon`, a path it cannot be told
    /// otherwise), starts the bus and the Avahi daemon, and says `bus-ready`, then
    /// `avahi-running` (the daemon answers on the bus and runs) or `avahi-exited`. Then it
    /// reads commands, `stop-avahi` (answered `avahi-stopped`) and `start-avahi`, until its
    /// standard input ends: then it exits, and the kernel kills every process of its PID
    /// namespace with it.
    static let hostScript = #"""
        D="$1"
        mount -t tmpfs -o mode=0755,size=1m handoff-avahi-run /run || { echo "mount-failed"; exit 1; }
        export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$D/bus.socket"
        /usr/bin/dbus-daemon --config-file="$D/bus.conf" --nofork --nopidfile >>"$D/daemons.log" 2>&1 &
        BUS=$!
        tries=0
        # The socket exists from bind(), before the bus listens: wait until it answers.
        until dbus-send --system --print-reply --reply-timeout=1000 --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.GetId >/dev/null 2>&1; do
            kill -0 "$BUS" 2>/dev/null || { echo "bus-exited"; exit 1; }
            tries=$((tries + 1)); [ "$tries" -lt 300 ] || { echo "bus-timeout"; exit 1; }
            sleep 0.05
        done
        echo "bus-ready"
        AVAHI=""
        start_avahi() {
            /usr/sbin/avahi-daemon -f "$D/avahi.conf" --no-chroot --no-drop-root --no-rlimits >>"$D/daemons.log" 2>&1 &
            AVAHI=$!
            tries=0
            until dbus-send --system --print-reply --reply-timeout=1000 --dest=org.freedesktop.Avahi / \
                    org.freedesktop.Avahi.Server.GetState 2>/dev/null | grep -q "int32 2"; do
                kill -0 "$AVAHI" 2>/dev/null || { echo "avahi-exited"; return; }
                tries=$((tries + 1)); [ "$tries" -lt 300 ] || { echo "avahi-timeout"; return; }
                sleep 0.05
            done
            echo "avahi-running"
        }
        start_avahi
        while read -r command; do
            case "$command" in
                stop-avahi) kill "$AVAHI" 2>/dev/null; wait "$AVAHI" 2>/dev/null; echo "avahi-stopped" ;;
                start-avahi) start_avahi ;;
            esac
        done
        """#
}
#endif
