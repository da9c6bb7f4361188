#pragma once

#include "redis/ConnectionOptions.h"

#include <QStringList>

#include <atomic>
#include <memory>

namespace keylens::redis {

class ChildProcess;

// `ssh -N -L 127.0.0.1:LOCAL:host:port` to the SSH server in SshOptions, run by the system's ssh so that its config
// (ProxyJump, the user's keys), the agent and known_hosts all apply. BatchMode: ssh never prompts; a host key it does
// not know or that changed is refused, as a key it cannot use without a passphrase is.
//
// Connections to the same server through the same SSH server share one tunnel (one ssh, one login). The last
// connection to close ends it; Keylens ending, however it ends, ends it too.
class SshTunnel
{
public:
    ~SshTunnel();
    SshTunnel(const SshTunnel&) = delete;
    SshTunnel& operator=(const SshTunnel&) = delete;

    // The running tunnel to host:port through `ssh`, or a new one once its local port accepts connections. Waits at
    // most about twice timeoutMs (ssh connects within timeoutMs, then logs in), and stops early once `cancel` is set.
    static Result<std::shared_ptr<SshTunnel>> acquire(const SshOptions& ssh, const QString& host, quint16 port,
                                                      int timeoutMs, const std::atomic<bool>* cancel);

    quint16 localPort() const { return m_localPort; }
    // How much ssh has logged so far: a mark for failureSince().
    qsizetype logSize() const;
    // Why a connection through the tunnel failed, from what ssh logged since `mark`: the tunnel ended, or the SSH
    // server could not reach the server. Empty when ssh logged nothing that explains it.
    QString failureSince(qsizetype mark) const;

private:
    SshTunnel(SshOptions ssh, std::unique_ptr<ChildProcess> process, quint16 localPort);
    static Result<std::shared_ptr<SshTunnel>> start(const SshOptions& ssh, const QString& host, quint16 port,
                                                    int timeoutMs, const std::atomic<bool>* cancel);

    SshOptions m_ssh;
    std::unique_ptr<ChildProcess> m_process;
    quint16 m_localPort;
};

// The arguments ssh gets for a tunnel from 127.0.0.1:localPort to host:port (no secret is ever among them: the Redis
// password goes through the tunnel, after it is up).
QStringList sshTunnelArguments(const SshOptions& ssh, const QString& host, quint16 port, quint16 localPort,
                               int timeoutMs);

// What ssh's stderr says, as one sentence a user can act on (the host key, the login, the network).
QString explainSshFailure(const SshOptions& ssh, const QByteArray& log);

} // namespace keylens::redis
