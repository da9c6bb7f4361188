#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>

namespace keylens::test {

// Runs `act` on the next visible top-level widget of type Dialog once it is up (a modal dialog that exec() is
// waiting on), looking every 50 ms for 10 s: a dialog that follows a round trip to the server comes later than one
// that opens at once. The flag says whether it was found.
template<typename Dialog> std::shared_ptr<bool> whenOpen(std::function<bool(Dialog*)> act)
{
    auto found = std::make_shared<bool>(false);
    auto look = std::make_shared<std::function<void(int)>>();
    *look = [act, found, look](int attemptsLeft) {
        for (QWidget* widget : QApplication::topLevelWidgets()) {
            auto* dialog = qobject_cast<Dialog*>(widget);
            if (dialog && dialog->isVisible() && act(dialog)) {
                *found = true;
                *look = nullptr; // breaks the cycle of the function holding itself
                return;
            }
        }
        if (attemptsLeft > 0)
            QTimer::singleShot(50, [look, attemptsLeft] { (*look)(attemptsLeft - 1); });
        else
            *look = nullptr;
    };
    QTimer::singleShot(100, [look] { (*look)(200); });
    return found;
}

// Clicks a button of the next modal message box; `said` (when given) gets its text.
inline std::shared_ptr<bool> answerNextMessageBox(const QString& buttonText, std::shared_ptr<QString> said = {})
{
    return whenOpen<QMessageBox>([buttonText, said](QMessageBox* box) {
        for (QAbstractButton* button : box->buttons()) {
            if (button->text().remove(u'&') == buttonText) {
                if (said)
                    *said = box->text();
                button->click();
                return true;
            }
        }
        return false;
    });
}

} // namespace keylens::test
