#include "ui/TlsGroup.h"

#include "ui/CredentialsDialog.h"
#include "ui/PathField.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace keylens::ui {

TlsGroup::TlsGroup(QWidget* parent)
    : QGroupBox(QStringLiteral("TLS (rediss://)"), parent)
    , m_caCert(
          new PathField(QStringLiteral("CA certificate"), QStringLiteral("the system's CAs"), PathField::Kind::File))
    , m_caCertDir(new PathField(QStringLiteral("CA directory"), QString(), PathField::Kind::Directory))
    , m_clientCert(new PathField(QStringLiteral("Client certificate"), QStringLiteral("when the server asks for one"),
                                 PathField::Kind::File))
    , m_clientKey(new PathField(QStringLiteral("Client key"), QString(), PathField::Kind::File))
    , m_serverName(new QLineEdit)
    , m_insecure(new QCheckBox(QStringLiteral("Do not check the server's certificate (insecure)")))
    , m_problem(createFieldProblemLabel())
{
    setObjectName(QStringLiteral("tls"));
    setCheckable(true);
    setChecked(false);
    m_serverName->setPlaceholderText(QStringLiteral("the host"));
    // Unchecked, the group is only its title: the dialog stays short for the common, direct connection.
    auto* fields = new QWidget;
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(fields);
    fields->setVisible(false);
    connect(this, &QGroupBox::toggled, fields, &QWidget::setVisible);
    auto* form = new QFormLayout(fields);
    form->addRow(QStringLiteral("CA certificate"), m_caCert);
    form->addRow(QStringLiteral("CA directory"), m_caCertDir);
    form->addRow(QStringLiteral("Client certificate"), m_clientCert);
    form->addRow(QStringLiteral("Client key"), m_clientKey);
    form->addRow(QStringLiteral("Server name"), m_serverName);
    form->addRow(QString(), m_insecure);
    form->addRow(QString(), m_problem);
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

void TlsGroup::showProblem(const QString& text)
{
    showFieldProblem(m_problem, text);
}

QString TlsGroup::problem() const
{
    return m_problem->isVisibleTo(this) ? m_problem->text() : QString();
}

} // namespace keylens::ui
