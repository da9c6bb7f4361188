#include "ui/CredentialsDialog.h"

#include "ui/OverlayColours.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace keylens::ui {

QLabel* createFieldProblemLabel()
{
    auto* label = new QLabel;
    label->setObjectName(QStringLiteral("fieldProblem"));
    label->setWordWrap(true);
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, overlay::errorText(palette));
    label->setPalette(palette);
    label->setVisible(false);
    return label;
}

void showFieldProblem(QLabel* label, const QString& text)
{
    label->setText(text.isEmpty() ? QString() : QStringLiteral("⚠ %1").arg(text));
    label->setVisible(!text.isEmpty());
}

CredentialsDialog::CredentialsDialog(const QString& server, Reason reason, const QByteArray& user, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Password for %1").arg(server));
    auto* intro =
        new QLabel(reason == Reason::Required ? tr("%1 asks for a password. Give the ACL user too, unless it is "
                                                   "the default one.")
                                                    .arg(server)
                                              : tr("%1 refused the user and password given.").arg(server));
    intro->setTextFormat(Qt::PlainText); // a connection's name is the user's text, not markup
    intro->setWordWrap(true);
    m_user = new QLineEdit(QString::fromUtf8(user));
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(QStringLiteral("default"));
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_problem = createFieldProblemLabel();
    if (reason == Reason::Refused)
        showFieldProblem(m_problem, tr("Wrong password, or no such user (WRONGPASS)."));
    m_keychain = new QCheckBox(tr("Keep it in the keychain for this saved connection"));
    m_keychain->setVisible(false);

    auto* form = new QFormLayout;
    form->addRow(tr("ACL user"), m_user);
    form->addRow(tr("Password"), m_password);
    form->addRow(QString(), m_problem);
    form->addRow(QString(), m_keychain);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_password, &QLineEdit::textEdited, this, [this] { showFieldProblem(m_problem, {}); });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
    m_password->setFocus();
}

void CredentialsDialog::offerKeychain(bool checked)
{
    m_keychain->setVisible(true);
    m_keychain->setChecked(checked);
}

QByteArray CredentialsDialog::user() const
{
    return m_user->text().trimmed().toUtf8();
}

QByteArray CredentialsDialog::password() const
{
    return m_password->text().toUtf8();
}

bool CredentialsDialog::storeInKeychain() const
{
    return m_keychain->isVisible() && m_keychain->isChecked();
}

} // namespace keylens::ui
