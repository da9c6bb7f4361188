#include "redis/TlsSocket.h"

#include "redis/Transport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSslConfiguration>
#include <QSslKey>
#include <QVariant>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace keylens::redis {

namespace {

// The last alert the server sent, kept on the socket: Qt reports the closed connection that follows it, not why.
constexpr const char* AlertProperty = "keylensTlsAlert";
constexpr const char* AlertTextProperty = "keylensTlsAlertText";

Error tlsUsage(const QString& message)
{
    return {ErrorKind::Usage, message};
}

Result<QList<QSslCertificate>> readCertificates(const QString& path, bool directory)
{
    const QList<QSslCertificate> certificates =
        directory ? QSslCertificate::fromPath(path + QStringLiteral("/*"), QSsl::Pem,
                                              QSslCertificate::PatternSyntax::Wildcard)
                  : QSslCertificate::fromPath(path, QSsl::Pem);
    if (certificates.isEmpty())
        return tlsUsage(QStringLiteral("no PEM certificate in %1").arg(path));
    return certificates;
}

// A PEM key of any algorithm Qt knows (RSA, EC, DSA, Diffie-Hellman), unencrypted.
Result<QSslKey> readKey(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tlsUsage(QStringLiteral("cannot read the key %1: %2").arg(path, file.errorString()));
    const QByteArray pem = file.readAll();
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa, QSsl::Dh}) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return tlsUsage(QStringLiteral("no private key Keylens can read in %1 (a PEM key without a passphrase)").arg(path));
}

// Whether the private key is the certificate's, as OpenSSL's own check judges it. A pair OpenSSL cannot read passes:
// Qt read it, and the handshake will say more.
bool keyBelongsToCertificate(const QSslCertificate& certificate, const QSslKey& key)
{
    const QByteArray certificatePem = certificate.toPem();
    const QByteArray keyPem = key.toPem();
    BIO* certificateBio = BIO_new_mem_buf(certificatePem.constData(), int(certificatePem.size()));
    BIO* keyBio = BIO_new_mem_buf(keyPem.constData(), int(keyPem.size()));
    X509* x509 = certificateBio ? PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr) : nullptr;
    EVP_PKEY* privateKey = keyBio ? PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr) : nullptr;
    const bool belongs = !x509 || !privateKey || X509_check_private_key(x509, privateKey) == 1;
    EVP_PKEY_free(privateKey);
    X509_free(x509);
    BIO_free(keyBio);
    BIO_free(certificateBio);
    ERR_clear_error(); // a failed check leaves its reason queued, for no one
    return belongs;
}

Result<QSslConfiguration> configurationFor(const TlsOptions& tls)
{
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    if (!tls.caCertFile.isEmpty() || !tls.caCertDir.isEmpty()) {
        QList<QSslCertificate> authorities;
        for (const auto& [path, directory] : {std::pair{tls.caCertFile, false}, std::pair{tls.caCertDir, true}}) {
            if (path.isEmpty())
                continue;
            Result<QList<QSslCertificate>> read = readCertificates(path, directory);
            if (!read)
                return read.error();
            authorities += *read;
        }
        configuration.setCaCertificates(authorities); // as redis-cli: the given CAs, not the system's too
    }
    if (!tls.certFile.isEmpty()) {
        Result<QList<QSslCertificate>> certificate = readCertificates(tls.certFile, false);
        if (!certificate)
            return certificate.error();
        Result<QSslKey> key = readKey(tls.keyFile);
        if (!key)
            return key.error();
        // Said at once: a mismatched pair otherwise fails inside the handshake, which looks like a wrong port.
        if (!keyBelongsToCertificate(certificate->first(), *key))
            return tlsUsage(
                QStringLiteral("the key %1 does not belong to the certificate %2 (their public keys differ)")
                    .arg(tls.keyFile, tls.certFile));
        configuration.setLocalCertificateChain(*certificate);
        configuration.setPrivateKey(*key);
    }
    configuration.setPeerVerifyMode(tls.insecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
    return configuration;
}

QString namesOf(const QSslCertificate& certificate)
{
    QStringList names = certificate.subjectAlternativeNames().values();
    if (names.isEmpty())
        names = certificate.subjectInfo(QSslCertificate::CommonName);
    return names.join(QStringLiteral(", "));
}

// Why the handshake failed, from the certificate checks when one failed, else from what the server did.
Error handshakeError(const QSslSocket& socket, const ConnectionOptions& options, const QString& peerName)
{
    const QString address = options.address();
    for (const QSslError& error : socket.sslHandshakeErrors()) {
        const QSslCertificate certificate = error.certificate();
        switch (error.error()) {
        case QSslError::HostNameMismatch:
            return {ErrorKind::Tls, QStringLiteral("TLS: %1's certificate is for %2, not %3 (--sni NAME checks "
                                                   "another name)")
                                        .arg(address, namesOf(certificate), peerName)};
        case QSslError::CertificateExpired:
            return {ErrorKind::Tls, QStringLiteral("TLS: %1's certificate expired on %2")
                                        .arg(address, certificate.expiryDate().toString(Qt::ISODate))};
        case QSslError::CertificateNotYetValid:
            return {ErrorKind::Tls, QStringLiteral("TLS: %1's certificate is not valid before %2")
                                        .arg(address, certificate.effectiveDate().toString(Qt::ISODate))};
        case QSslError::UnableToGetLocalIssuerCertificate:
        case QSslError::UnableToGetIssuerCertificate:
        case QSslError::UnableToVerifyFirstCertificate:
        case QSslError::SelfSignedCertificate:
        case QSslError::SelfSignedCertificateInChain:
        case QSslError::CertificateUntrusted:
            return {ErrorKind::Tls,
                    QStringLiteral("TLS: %1's certificate is signed by a CA that is not trusted (%2); give that CA "
                                   "with --cacert, or --insecure to skip the check")
                        .arg(address, certificate.issuerDisplayName())};
        default:
            break;
        }
    }
    if (!socket.sslHandshakeErrors().isEmpty())
        return {ErrorKind::Tls, QStringLiteral("TLS: %1's certificate was refused: %2")
                                    .arg(address, socket.sslHandshakeErrors().first().errorString())};
    // No certificate problem on our side: the server ended the handshake.
    const QString detail = socket.errorString();
    if (std::optional<Error> refusal = clientCertificateRefusal(socket, address, !options.tls.certFile.isEmpty()))
        return *refusal;
    if (socket.error() == QAbstractSocket::SocketTimeoutError)
        return {ErrorKind::Timeout, QStringLiteral("TLS: no handshake with %1 within %2 s (is it a TLS port?)")
                                        .arg(address)
                                        .arg(options.connectTimeoutMs / 1000.0)};
    return {ErrorKind::Tls,
            QStringLiteral("TLS: the handshake with %1 failed: %2 (is it a TLS port?)").arg(address, detail)};
}

} // namespace

std::optional<Error> clientCertificateRefusal(const QSslSocket& socket, const QString& address, bool certificateGiven)
{
    const QVariant alert = socket.property(AlertProperty);
    if (!alert.isValid())
        return std::nullopt;
    const auto type = QSsl::AlertType(alert.toInt());
    if (type == QSsl::AlertType::CertificateRequired ||
        (!certificateGiven && type == QSsl::AlertType::HandshakeFailure))
        return Error{ErrorKind::Tls,
                     QStringLiteral("TLS: %1 requires a client certificate (--cert FILE --key FILE)").arg(address)};
    if (certificateGiven &&
        (type == QSsl::AlertType::BadCertificate || type == QSsl::AlertType::UnknownCa ||
         type == QSsl::AlertType::CertificateUnknown || type == QSsl::AlertType::CertificateExpired ||
         type == QSsl::AlertType::CertificateRevoked || type == QSsl::AlertType::AccessDenied))
        return Error{ErrorKind::Tls, QStringLiteral("TLS: %1 refused our client certificate (%2)")
                                         .arg(address, socket.property(AlertTextProperty).toString())};
    return std::nullopt;
}

Status configureTls(QSslSocket& socket, const ConnectionOptions& options)
{
    if (!QSslSocket::supportsSsl())
        return Error{ErrorKind::Unsupported, QStringLiteral("this build of Qt has no TLS backend (OpenSSL) to use")};
    Result<QSslConfiguration> configuration = configurationFor(options.tls);
    if (!configuration)
        return configuration.error();
    QSslSocket* raw = &socket;
    QObject::connect(raw, &QSslSocket::alertReceived, raw,
                     [raw](QSsl::AlertLevel, QSsl::AlertType type, const QString& description) {
                         raw->setProperty(AlertProperty, int(type));
                         raw->setProperty(AlertTextProperty, description);
                     });
    socket.setSslConfiguration(*configuration);
    // The name sent (SNI) and checked against the certificate.
    socket.setPeerVerifyName(options.tls.serverName.isEmpty() ? options.host : options.tls.serverName);
    return {};
}

Status handshakeTls(QSslSocket& socket, const ConnectionOptions& options, int timeoutMs,
                    const std::atomic<bool>* cancel)
{
    socket.startClientEncryption();
    QElapsedTimer clock;
    clock.start();
    // In slices, as reads are: a server that accepted the connection but never answers must not hold Cancel.
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return Error{ErrorKind::Cancelled,
                         QStringLiteral("cancelled during the TLS handshake with %1").arg(options.address())};
        const qint64 left = timeoutMs - clock.elapsed();
        if (socket.waitForEncrypted(int(std::clamp<qint64>(left, 1, Transport::CancelSliceMs))))
            return {};
        const bool sliceEnded =
            socket.error() == QAbstractSocket::SocketTimeoutError && socket.state() == QAbstractSocket::ConnectedState;
        if (!sliceEnded || clock.elapsed() >= timeoutMs)
            return handshakeError(socket, options, socket.peerVerifyName());
    }
}

} // namespace keylens::redis
