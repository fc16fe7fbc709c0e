"""Arabic two-letter ligatures that a PDF's text layer stored backwards are put back in order,
in a document that shows the fault, and nowhere else."""

from __future__ import annotations

from workbench.text.arabic_ligatures import find_arabic_repair

# Words as printed, then as a Word-made PDF's text layer gives them (lam-meem and lam-alef reversed).
WORDS = [
    "المعلومات", "المجتمع", "المدرسة", "المسلمين", "المعاملات", "المالية", "المشرف",
    "المعلم", "المكتبة", "المنطقة", "المصادر", "المرأة", "المؤسسة",
]  # fmt: skip
BROKEN = ["ام" + "ل" + word[3:] for word in WORDS]


def test_a_document_whose_ligatures_are_reversed_gets_its_words_back() -> None:
    page = " ".join(BROKEN) + " ضوابط االصطناعي حتليلية"
    repair = find_arabic_repair([page])
    fixed = repair(page)
    assert fixed.split()[: len(WORDS)] == WORDS
    assert "الاصطناعي" in fixed and "تحليلية" in fixed
    assert repair("Aday AL-BADA 2026") == "Aday AL-BADA 2026"


def test_a_sound_document_and_a_few_odd_words_are_left_alone() -> None:
    sound = " ".join(WORDS) + " الاصطناعي تحليلية"
    assert find_arabic_repair([sound])(sound) == sound
    few = " ".join(WORDS) + " " + " ".join(BROKEN[:3])  # three odd words in a sound text show no fault
    assert find_arabic_repair([few])(few) == few
