#include "ui/TlsGroup.h"

#include "ui/PathField.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>

namespace keylens::ui {

TlsGroup::TlsGroup(QWidget* parent)
    : FoldingGroup(tr("TLS (rediss://)"), parent)
    , m_caCert(new PathField(tr("CA certificate"), tr("the system's CAs"), PathField::Kind::File))
    , m_caCertDir(new PathField(tr("CA directory"), QString(), PathField::Kind::Directory))
    , m_clientCert(new PathField(tr("Client certificate"), tr("when the server asks for one"), PathField::Kind::File))
    , m_clientKey(new PathField(tr("Client key"), QString(), PathField::Kind::File))
    , m_serverName(new QLineEdit)
    , m_insecure(new QCheckBox(tr("Do not check the server's certificate (insecure)")))
{
    setObjectName(QStringLiteral("tls"));
    m_serverName->setPlaceholderText(tr("the host"));
    QFormLayout* form = this->form();
    form->addRow(tr("CA certificate"), m_caCert);
    form->addRow(tr("CA directory"), m_caCertDir);
    form->addRow(tr("Client certificate"), m_clientCert);
    form->addRow(tr("Client key"), m_clientKey);
    form->addRow(tr("Server name"), m_serverName);
    form->addRow(QString(), m_insecure);
    addProblemRow();
}

void TlsGroup::setOptions(const redis::TlsOptions& tls)
{
    setChecked(tls.enabled);
    m_caCert->setPath(tls.caCertFile);
    m_caCertDir->setPath(tls.caCertDir);
    m_clientCert->setPath(tls.certFile);
    m_clientKey->setPath(tls.keyFile);
    m_serverName->setText(tls.serverName);
    m_insecure->setChecked(tls.insecure);
}

redis::TlsOptions TlsGroup::options() const
{
    redis::TlsOptions tls;
    tls.enabled = isChecked();
    tls.caCertFile = m_caCert->path();
    tls.caCertDir = m_caCertDir->path();
    tls.certFile = m_clientCert->path();
    tls.keyFile = m_clientKey->path();
    tls.serverName = m_serverName->text().trimmed();
    tls.insecure = m_insecure->isChecked();
    return tls;
}

} // namespace keylens::ui
