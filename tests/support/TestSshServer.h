#pragma once

#include "TestServer.h"
#include "redis/ConnectionOptions.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace keylens::test {

// A private sshd on a loopback port, for SSH tunnel tests: its own host key, a client key it accepts and one it does
// not, and known_hosts files that know its host key, know nothing, or hold another key for it.
class TestSshServer
{
public:
    ~TestSshServer()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            m_sshd.waitForFinished(3000);
        }
    }

    // False (with why()) when sshd or ssh-keygen is missing or sshd does not start: the caller skips.
    bool start()
    {
        const QString sshd = QStringLiteral("/usr/sbin/sshd");
        if (!QFile::exists(sshd) || QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            return fail(QStringLiteral("sshd or ssh is not installed (Debian: openssh-server, openssh-client)"));
        if (!keygen(QStringLiteral("host_key")) || !keygen(QStringLiteral("client_key")) ||
            !keygen(QStringLiteral("other_key")))
            return false;
        if (!copy(QStringLiteral("client_key.pub"), QStringLiteral("authorized_keys")))
            return fail(QStringLiteral("cannot write authorized_keys"));
        // As root, sshd wants its privilege separation directory, which only a running ssh service makes.
        if (geteuid() == 0)
            QDir().mkpath(QStringLiteral("/run/sshd"));
        m_port = freeLoopbackPort();
        const QByteArray config = "ListenAddress 127.0.0.1\nPort " + QByteArray::number(m_port) + "\nHostKey " +
                                  path(QStringLiteral("host_key")).toUtf8() + "\nAuthorizedKeysFile " +
                                  path(QStringLiteral("authorized_keys")).toUtf8() +
                                  "\nPidFile none\nUsePAM no\nPasswordAuthentication no\n"
                                  "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                                  "StrictModes no\nAllowTcpForwarding yes\n";
        if (!write(QStringLiteral("sshd_config"), config))
            return fail(QStringLiteral("cannot write sshd_config"));
        const QByteArray hostKey = publicKey(QStringLiteral("host_key.pub"));
        const QByteArray otherKey = publicKey(QStringLiteral("other_key.pub"));
        const QByteArray place = "[127.0.0.1]:" + QByteArray::number(m_port) + " ";
        if (!write(QStringLiteral("known_hosts"), place + hostKey + "\n") ||
            !write(QStringLiteral("wrong_known_hosts"), place + otherKey + "\n") ||
            !write(QStringLiteral("empty_known_hosts"), {}))
            return fail(QStringLiteral("cannot write known_hosts"));
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        // A test that crashes leaves no sshd behind.
        m_sshd.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                            path(QStringLiteral("sshd_config"))});
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 10000) {
            if (m_sshd.state() == QProcess::NotRunning || m_sshd.waitForFinished(0))
                return fail(QStringLiteral("sshd did not start: ") + QString::fromUtf8(m_sshd.readAll()));
            QTcpSocket probe;
            probe.connectToHost(QHostAddress::LocalHost, m_port);
            if (probe.waitForConnected(200))
                return true;
            QThread::msleep(50);
        }
        return fail(QStringLiteral("sshd did not listen within 10 s"));
    }

    QString why() const { return m_why; }
    quint16 port() const { return m_port; }
    QString path(const QString& name) const { return m_directory.filePath(name); }
    qint64 processId() const { return m_sshd.processId(); }
    void stop()
    {
        m_sshd.kill();
        m_sshd.waitForFinished(3000);
    }

    // A tunnel through this server as the current user, with the accepted key and a known_hosts that knows it.
    redis::SshOptions options() const
    {
        redis::SshOptions ssh;
        ssh.host = QStringLiteral("127.0.0.1");
        ssh.port = m_port;
        const passwd* user = getpwuid(geteuid());
        ssh.user = user ? QString::fromLocal8Bit(user->pw_name) : QString();
        ssh.identityFile = path(QStringLiteral("client_key"));
        ssh.knownHostsFile = path(QStringLiteral("known_hosts"));
        return ssh;
    }

private:
    bool fail(const QString& why)
    {
        m_why = why;
        return false;
    }
    bool keygen(const QString& name)
    {
        QProcess keygen;
        keygen.start(QStringLiteral("ssh-keygen"),
                     {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                      QString(), QStringLiteral("-f"), path(name)});
        if (!keygen.waitForFinished(10000) || keygen.exitCode() != 0)
            return fail(QStringLiteral("ssh-keygen failed: ") + QString::fromUtf8(keygen.readAllStandardError()));
        return true;
    }
    bool write(const QString& name, const QByteArray& bytes)
    {
        QFile file(path(name));
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    }
    bool copy(const QString& from, const QString& to) { return write(to, publicKey(from) + "\n"); }
    QByteArray publicKey(const QString& name) const
    {
        QFile file(path(name));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QList<QByteArray> fields = file.readAll().trimmed().split(' ');
        return fields.size() >= 2 ? fields[0] + ' ' + fields[1] : QByteArray();
    }

    QTemporaryDir m_directory;
    QProcess m_sshd;
    quint16 m_port = 0;
    QString m_why;
};

} // namespace keylens::test
