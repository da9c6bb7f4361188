#pragma once

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace keylens::test {

// Certificates made with openssl for TLS tests, in a temporary directory: two CAs, a server certificate for
// 127.0.0.1 and localhost, the same name expired, and a client certificate, all signed by the first CA.
class TestPki
{
public:
    static QString openssl() { return QStandardPaths::findExecutable(QStringLiteral("openssl")); }

    // False (with why()) when openssl is missing or failed.
    bool make()
    {
        if (openssl().isEmpty()) {
            m_why = QStringLiteral("openssl is not installed");
            return false;
        }
        QFile config(path(QStringLiteral("ca.cnf")));
        if (!config.open(QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write ca.cnf"));
        config.write("[ca]\ndefault_ca = test\n[test]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n"
                     "default_md = sha256\npolicy = anything\ncopy_extensions = copy\nunique_subject = no\n"
                     "[anything]\ncommonName = supplied\n");
        config.close();
        QFile(path(QStringLiteral("index.txt"))).open(QIODevice::WriteOnly);
        QFile serial(path(QStringLiteral("serial")));
        if (!serial.open(QIODevice::WriteOnly) || serial.write("01\n") != 3)
            return fail(QStringLiteral("cannot write serial"));
        serial.close();
        const QString serverNames = QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost");
        return authority(QStringLiteral("ca"), QStringLiteral("Keylens Test CA")) &&
               authority(QStringLiteral("other-ca"), QStringLiteral("Another CA")) &&
               request(QStringLiteral("server"), QStringLiteral("127.0.0.1"), serverNames) &&
               sign(QStringLiteral("server"), {QStringLiteral("-days"), QStringLiteral("2")}) &&
               request(QStringLiteral("expired"), QStringLiteral("127.0.0.1"), serverNames) &&
               sign(QStringLiteral("expired"), {QStringLiteral("-startdate"), QStringLiteral("20200101000000Z"),
                                                QStringLiteral("-enddate"), QStringLiteral("20200102000000Z")}) &&
               request(QStringLiteral("client"), QStringLiteral("keylens client"), {}) &&
               sign(QStringLiteral("client"), {QStringLiteral("-days"), QStringLiteral("2")});
    }

    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString why() const { return m_why; }

private:
    bool fail(const QString& why)
    {
        m_why = why;
        return false;
    }

    bool run(const QStringList& arguments)
    {
        QProcess process;
        process.setWorkingDirectory(m_dir.path());
        process.start(openssl(), arguments);
        if (!process.waitForFinished(60000) || process.exitCode() != 0)
            return fail(QStringLiteral("openssl %1 failed: %2")
                            .arg(arguments.first(), QString::fromUtf8(process.readAllStandardError())));
        return true;
    }

    bool authority(const QString& name, const QString& commonName)
    {
        return run({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                    QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("2"),
                    QStringLiteral("-subj"), QStringLiteral("/CN=") + commonName, QStringLiteral("-keyout"),
                    name + QStringLiteral(".key"), QStringLiteral("-out"), name + QStringLiteral(".pem")});
    }

    bool request(const QString& name, const QString& commonName, const QString& extension)
    {
        QStringList arguments{QStringLiteral("req"),      QStringLiteral("-newkey"),
                              QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
                              QStringLiteral("-subj"),    QStringLiteral("/CN=") + commonName,
                              QStringLiteral("-keyout"),  name + QStringLiteral(".key"),
                              QStringLiteral("-out"),     name + QStringLiteral(".csr")};
        if (!extension.isEmpty())
            arguments << QStringLiteral("-addext") << extension;
        return run(arguments);
    }

    bool sign(const QString& name, const QStringList& validity)
    {
        return run(QStringList{QStringLiteral("ca"), QStringLiteral("-batch"), QStringLiteral("-notext"),
                               QStringLiteral("-config"), QStringLiteral("ca.cnf"), QStringLiteral("-cert"),
                               QStringLiteral("ca.pem"), QStringLiteral("-keyfile"), QStringLiteral("ca.key"),
                               QStringLiteral("-in"), name + QStringLiteral(".csr"), QStringLiteral("-out"),
                               name + QStringLiteral(".pem")} +
                   validity);
    }

    QTemporaryDir m_dir;
    QString m_why;
};

} // namespace keylens::test
