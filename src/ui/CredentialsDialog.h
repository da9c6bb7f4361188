#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace keylens::ui {

// Asks for the ACL user and password a server wants: when it answered NOAUTH (it needs a password we did not give)
// or refused the one we gave. The refusal is said under the password field, in the colour of an error.
class CredentialsDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Reason { Required, Refused };

    CredentialsDialog(const QString& server, Reason reason, const QByteArray& user, QWidget* parent = nullptr);

    // Offers to keep the password in the keychain (for a saved connection whose password lives there).
    void offerKeychain(bool checked);

    QByteArray user() const;
    QByteArray password() const;
    bool storeInKeychain() const;

    QLineEdit* userField() const { return m_user; }
    QLineEdit* passwordField() const { return m_password; }
    QLabel* problem() const { return m_problem; }

private:
    QLineEdit* m_user;
    QLineEdit* m_password;
    QLabel* m_problem;
    QCheckBox* m_keychain;
};

// A label that says what is wrong with the field above it: error-coloured, hidden while empty.
QLabel* createFieldProblemLabel();
void showFieldProblem(QLabel* label, const QString& text);

} // namespace keylens::ui
