#pragma once

#include "DialogAnswers.h"
#include "ui/EditDialogs.h"

#include <QLineEdit>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace keylens::test {

// Once the server answered what the dialog sent (ui::ElementDialog::setSend), `then` gets the dialog: still open
// after a refusal, or null once it closed after a write.
inline void afterAnswer(ui::ElementDialog* dialog, std::function<void(ui::ElementDialog*)> then)
{
    auto wait = std::make_shared<std::function<void()>>();
    *wait = [wait, then, shown = QPointer<ui::ElementDialog>(dialog)] {
        if (shown && shown->isVisible() && shown->isWaiting()) {
            QTimer::singleShot(20, *wait);
            return;
        }
        then(shown && shown->isVisible() ? shown.data() : nullptr);
        *wait = nullptr; // breaks the cycle of the function holding itself
    };
    QTimer::singleShot(20, *wait);
}

// Fills the next Add… or Edit element dialog and presses its button. Written, the dialog closes by itself; refused,
// `refusal` gets why (what the dialog shows beside the fields, still filled in) and the dialog is cancelled.
// `first`/`second` left unset are not touched.
inline std::shared_ptr<bool> answerElementDialog(std::optional<QString> first, std::optional<QString> second,
                                                 std::shared_ptr<QString> refusal = {})
{
    return whenOpen<ui::ElementDialog>([first, second, refusal](ui::ElementDialog* dialog) {
        if (first)
            dialog->firstField()->setText(*first);
        if (second)
            dialog->secondField()->setText(*second);
        dialog->accept();
        afterAnswer(dialog, [refusal](ui::ElementDialog* open) {
            if (!open)
                return;
            if (refusal)
                *refusal = open->problem();
            open->reject();
        });
        return true;
    });
}

} // namespace keylens::test
