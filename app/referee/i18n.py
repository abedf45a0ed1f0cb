"""Turkish and English for the rulings; tavla terms stay Turkish in Turkish.

A ruling is a code and parameters (:mod:`app.referee.rulings`); :func:`render` makes
the sentence in either language with the players' names, as the journal's exports and
the screens say it (the screens' own labels are :mod:`app.ui.labels`). In the Turkish
texts the game's own words are kept: kırma (a hit), bar, mars (gammon),
katmerli mars (backgammon), küp (the cube), hane (a point).
"""

from __future__ import annotations

from typing import Any, Mapping

from app.referee.rulings import Ruling
from rules.judge import Violation

LANGUAGES = ("tr", "en")

_RULINGS: dict[str, dict[str, str]] = {
    "en": {
        "opening_tie": "Opening throw {white}-{black}: a tie. Both throw again.",
        "automatic_double": "The tie doubles the stake: the cube is at {value}.",
        "opening_won": "{player} starts ({white} against {black}){starts}.",
        "set_up_board": "The board is not in the starting position: set it up.",
        "void_throw": "Void throw: {reason}. Throw both dice again.",
        "throw_questioned": "The camera is not sure of this throw ({doubts}): it reads {dice}. {asked}: confirm, "
        "correct the dice or call a rethrow.",
        "void_questioned": "The camera is not sure of this throw ({doubts}): it reads it void ({reason}). {asked}: "
        "confirm, correct the dice or call a rethrow.",
        "throw_confirmed": "{player} confirms the camera's reading.",
        "throw_corrected": "{player} corrects the dice to {dice}.",
        "rethrow_called": "{player} calls a rethrow.",
        "question_disputed": "The players do not agree about the throw: the director decides.",
        "rethrow": "The throw does not count: throw both dice again.",
        "director_rethrow": "The director rules the throw void: throw both dice again.",
        "director_dice": "The director rules the throw {dice}.",
        "no_question": "There is no throw waiting to be confirmed.",
        "director_decides": "{player}: the players disagreed, the director decides this throw.",
        "not_asked": "{player} is not asked about this throw: {asked} answer.",
        "already_answered": "{player} has already answered about this throw.",
        "answer_question_first": "The throw waits to be confirmed first ({player}).",
        "clocks_paused_question": "Clocks paused while the throw is confirmed ({player}'s clock waits).",
        "clock_resumed_question": "The throw is settled: {player}'s clock runs again.",
        "result_not_final": "{player}: there is no final result to confirm yet.",
        "result_already_confirmed": "{player} has already confirmed the result.",
        "result_confirmed": "{player} confirms the result.",
        "result_agreed": "Both players confirmed the result.",
        "dice": "{player} rolled {dice}.",
        "no_move": "{player} cannot move with {dice}: the turn is lost. Press the clock.",
        "early_throw": "{player} threw before {waiting} pressed the clock: the throw does not count.",
        "thrown_again": "{player} threw again during the play: the first throw stands.",
        "throw_during_play": "Dice thrown again while {waiting} plays (who threw is not known): the first throw "
        "stands.",
        "out_of_turn_throw": "{player} threw out of turn: it is {waiting}'s throw.",
        "throw_before_answer": "Dice thrown before {waiting} answered: the throw does not count.",
        "choose_first": "{player} must first choose: accept the flagged play or have it corrected.",
        "board_invalid": "The board cannot be right: {problems}.",
        "takeback": "{player} moved a released checker back: a move is complete when the checker leaves the hand.",
        "takeback_earlier": "{player}: the board shows an earlier position. A play cannot be taken back; "
        "restore the board.",
        "board_moved_out_of_turn": "Checkers moved while it is {waiting}'s turn to throw.",
        "touched_out_of_turn": "A checker of {player} was touched on point {point} while it is {on_turn}'s turn.",
        "hint": "Point {point} can go to: {targets}.",
        "clock_started": "Clock started: {player} is on turn.",
        "throw_first": "{player} pressed the clock before throwing: throw the dice first.",
        "answer_first": "{player} must answer first.",
        "enter_play": "{player}: enter the play on the tablet, then press the clock.",
        "board_unreadable": "{player}: the board cannot be judged ({problems}). "
        "Put the checkers right and press again.",
        "play_ok": "{player} played {dice}: {play}.",
        "illegal_play": "Illegal play by {player}: {rules}.{choice}",
        "unfinished_play": "Unfinished play by {player}: {rules}.{choice}",
        "choose": "{player}: accept the play as made, or have it corrected?",
        "illegal_accepted": "{player} accepts {mover}'s play as made.",
        "illegal_corrected": "{player} has the play corrected: {mover} restores the board and plays {dice} again.",
        "nothing_to_choose": "There is no flagged play to decide.",
        "not_your_choice": "{chooser} decides about this play, not {player}.",
        "cube_refused": "{player} may not do that: {rule_text}.",
        "action_refused": "Not allowed: {detail}.",
        "double_offered": "{player} doubles to {value}.",
        "taken": "{player} takes: the cube is at {value}, owned by {player}.",
        "beavered": "{player} beavers: the cube is at {value}.",
        "raccooned": "{player} raccoons: the cube is at {value}.",
        "resign_offered": "{player} offers to resign: {kind}.",
        "resign_rejected": "{player} declines the resignation: play on.",
        "game_over": "{player} wins {kind}{ending}: {points} point(s). Score {score}.",
        "game_drawn": "The game is drawn. Score {score}.",
        "new_game": "Game {number}{crawford}. Opening throw: one die each.",
        "previous_winner_starts": "{player} won the last game and throws first.",
        "match_over": "{player} wins the match{end}. Final score {score}.",
        "flag_fell": "{player}'s time has run out: the match is lost on time.",
        "clock_fault": "Clock fault: the clock reported {flag}'s time run out, but {flag}'s clock was not running. "
        "No result: check the clock and call the director.",
        "flag_ignored": "{player}'s time ran out, but a money session is not lost on time.",
        "link_up": "The {device} is connected.",
        "link_down": "The {device} is disconnected{detail}.",
        "link_noisy": "The {device}'s cable is noisy ({damaged} % of frames damaged, {lost} % lost): check it.",
        "link_clean": "The {device}'s cable is clean again.",
        "photos_not_kept": "Throw photos are no longer kept ({why}); the match goes on and its journal is whole.",
        "no_play_expected": "No play is expected now.",
        "manual_ambiguous": "'{text}' fits more than one play: {options}.",
        "manual_illegal": "'{text}' is not legal: {rules}.",
        "manual_unreadable": "'{text}' cannot be read: {detail}.",
        "director_called": "The director is called{by}. Both clocks are stopped.",
        "pin_refused": "Wrong director PIN: nothing was changed.",
        "pin_locked": "{attempts} wrong director PINs in a row: the next try is possible in {seconds} s.",
        "override_refused": "The director's '{command}' cannot be done now ({reason}).",
        "resumed": "The director resumes play.",
        "play_undone": "The director takes back the last play: {player} plays again.",
        "policy_set": "Illegal-play policy: {policy}.",
        "time_set": "The director sets {player}'s remaining time to {ms} ms.",
        "mode_set": "Mode: {mode}.",
        "calibrated": "The director calibrated the camera again ({how}): corners {corners}. The match goes on.",
        "dice_voided": "The director voids {player}'s dice: throw again.",
        "dice_set": "The director sets {player}'s dice to {dice}.",
        "match_is_over": "The match is over.",
        "name_double_first": "{player} must first name the double to play.",
        "play_passed_first": "{player} must first play the numbers passed on ({numbers}).",
        "double_named": "{player} names {dice}.",
        "play_halted": "Play is stopped until the director resumes it.",
        "chouette_names_member": "In a chouette every cube action names the member whose cube it is:"
        " use that member's buttons.",
        "not_a_chouette": "A cube per member belongs to a chouette; this is a match between two.",
        "member_double": "{member} doubles the box ({box}) to {value}.",
        "member_double_box": "The box ({box}) doubles {member} to {value}.",
        "member_take": "{member} takes the box's double: {member}'s cube is at {value}.",
        "member_take_box": "The box ({box}) takes {member}'s double: that cube is at {value}.",
        "member_drop": "{member} drops the box's double, pays {points} point(s) and is out of this game.",
        "member_drop_box": "The box ({box}) drops {member}'s double and pays {member} {points} point(s).",
        "member_beaver": "{member} beavers the box's double: {member}'s cube is at {value}.",
        "member_beaver_box": "The box ({box}) beavers {member}'s double: that cube is at {value}, the box's.",
        "member_raccoon": "{member} raccoons: {member}'s cube is at {value}.",
        "member_raccoon_box": "The box ({box}) raccoons: {member}'s cube is at {value}.",
        "member_cube_refused": "{by} may not do that on {member}'s cube: {rule_text}.",
        "captain_passes": "{previous} is out: {captain} moves the team's checkers now.",
        "chouette_game_over_box": "The box ({box}) wins {kind} against the team.",
        "chouette_game_over_team": "The team (captain {captain}) wins {kind} against the box ({box}).",
        "chouette_settled": "Settled with the box ({box}): {settled}.",
        "ledger": "Ledger: {ledger}.",
        "line_turns_stays": "{box} stays the box; the line is {line} (captain {captain}).",
        "line_turns_moves": "{box} is the new box; the line is {line} (captain {captain}).",
    },
    "tr": {
        "opening_tie": "Başlangıç zarı {white}-{black}: eşit. İkisi de yeniden atar.",
        "automatic_double": "Eşit zar bahsi ikiye katlar: küp {value}.",
        "opening_won": "{player} başlar ({white} - {black}){starts}.",
        "set_up_board": "Tahta başlangıç dizilişinde değil: pulları dizin.",
        "void_throw": "Geçersiz atış: {reason}. İki zar yeniden atılır.",
        "throw_questioned": "Kamera bu atıştan emin değil ({doubts}): {dice} okuyor. {asked}: onaylayın, zarı "
        "düzeltin ya da yeniden atış isteyin.",
        "void_questioned": "Kamera bu atıştan emin değil ({doubts}): atışı geçersiz okuyor ({reason}). {asked}: "
        "onaylayın, zarı düzeltin ya da yeniden atış isteyin.",
        "throw_confirmed": "{player} kameranın okuduğu zarı onayladı.",
        "throw_corrected": "{player} zarı {dice} olarak düzeltti.",
        "rethrow_called": "{player} yeniden atış istedi.",
        "question_disputed": "Oyuncular atışta anlaşamadı: karar hakemin.",
        "rethrow": "Atış sayılmadı: iki zar yeniden atılır.",
        "director_rethrow": "Hakem atışı geçersiz saydı: iki zar yeniden atılır.",
        "director_dice": "Hakem kararı: zar {dice}.",
        "no_question": "Onay bekleyen bir atış yok.",
        "director_decides": "{player}: oyuncular anlaşamadı, bu atışa hakem karar verir.",
        "not_asked": "Bu atış {player} oyuncusuna sorulmadı: {asked} cevap verir.",
        "already_answered": "{player} bu atış için zaten cevap verdi.",
        "answer_question_first": "Önce atış onaylanmalı ({player}).",
        "clocks_paused_question": "Atış onaylanırken saatler durduruldu (saati duran: {player}).",
        "clock_resumed_question": "Atış karara bağlandı: saat yeniden işliyor. Sıra: {player}.",
        "result_not_final": "{player}: onaylanacak bir maç sonucu henüz yok.",
        "result_already_confirmed": "{player} sonucu zaten onayladı.",
        "result_confirmed": "{player} sonucu onayladı.",
        "result_agreed": "İki oyuncu da sonucu onayladı.",
        "dice": "{player} {dice} attı.",
        "no_move": "{player} {dice} ile oynayamıyor: zar yanar. Saate basın.",
        "early_throw": "{player}, {waiting} saate basmadan zar attı: atış sayılmaz.",
        "thrown_again": "{player} oyun sırasında yeniden zar attı: ilk atış geçerli.",
        "throw_during_play": "{waiting} oynarken yeniden zar atıldı (kimin attığı belli değil): ilk atış geçerli.",
        "out_of_turn_throw": "{player} sırası değilken attı. Atış sırası: {waiting}.",
        "throw_before_answer": "{waiting} cevap vermeden zar atıldı: atış sayılmaz.",
        "choose_first": "{player} önce seçmeli: işaretlenen oyunu kabul mü, düzeltme mi?",
        "board_invalid": "Tahta doğru olamaz: {problems}.",
        "takeback": "{player} bırakılmış bir pulu geri aldı: pul elden çıkınca hamle tamamdır.",
        "takeback_earlier": "{player}: tahta önceki bir dizilişi gösteriyor. Oynanan geri alınamaz; tahtayı düzeltin.",
        "board_moved_out_of_turn": "Pullar oynatıldı, oysa zar atma sırası: {waiting}.",
        "touched_out_of_turn": "{player} pulu {point}. hanede ellendi, oysa sıra: {on_turn}.",
        "hint": "{point}. hanedeki pul şuraya gidebilir: {targets}.",
        "clock_started": "Saat başladı. Sıra: {player}.",
        "throw_first": "{player} zar atmadan saate bastı: önce zar atın.",
        "answer_first": "{player} önce cevap vermeli.",
        "enter_play": "{player}: oyunu tablete girin, sonra saate basın.",
        "board_unreadable": "{player}: tahta değerlendirilemiyor ({problems}). Pulları düzeltip yeniden basın.",
        "play_ok": "{player} {dice} oynadı: {play}.",
        "illegal_play": "{player} kural dışı oynadı: {rules}.{choice}",
        "unfinished_play": "{player} oyununu bitirmedi: {rules}.{choice}",
        "choose": "{player}: oyun oynandığı gibi kabul mü, yoksa düzeltilsin mi?",
        "illegal_accepted": "{player} kabul ediyor: {mover} oynandığı gibi kalır.",
        "illegal_corrected": "{player} düzeltme istiyor: {mover} tahtayı geri alıp {dice} zarını yeniden oynar.",
        "nothing_to_choose": "Karar verilecek işaretli bir oyun yok.",
        "not_your_choice": "Bu oyuna {player} değil, {chooser} karar verir.",
        "cube_refused": "{player} bunu yapamaz: {rule_text}.",
        "action_refused": "İzin verilmez: {detail}.",
        "double_offered": "{player} küpü çeviriyor: {value}.",
        "taken": "{player} kabul etti: küp {value}, sahibi {player}.",
        "beavered": "{player} beaver dedi: küp {value}.",
        "raccooned": "{player} raccoon dedi: küp {value}.",
        "resign_offered": "{player} pes etmeyi öneriyor: {kind}.",
        "resign_rejected": "{player} pes teklifini reddetti: oyun sürüyor.",
        "game_over": "{player} kazandı: {kind}{ending}, {points} sayı. Skor {score}.",
        "game_drawn": "Oyun berabere. Skor {score}.",
        "new_game": "{number}. oyun{crawford}. Başlangıç zarı: herkes bir zar.",
        "previous_winner_starts": "Önceki oyunu {player} kazandı, ilk o atar.",
        "match_over": "Maçı {player} kazandı{end}. Son skor {score}.",
        "flag_fell": "Süre bitti ({player}): maç süreden kaybedildi.",
        "clock_fault": "Saat arızası: saat {flag} için süre bitti dedi, ama {flag} saati çalışmıyordu. "
        "Sonuç yok: saati kontrol edin, hakemi çağırın.",
        "flag_ignored": "Süre bitti ({player}), ama paralı oyunda süreden kaybedilmez.",
        "link_up": "{device} bağlandı.",
        "link_down": "{device} bağlantısı koptu{detail}.",
        "link_noisy": "{device} kablosu parazitli (bozuk çerçeve %{damaged}, kayıp %{lost}): kabloyu kontrol edin.",
        "link_clean": "{device} kablosu yine temiz.",
        "photos_not_kept": "Atış fotoğrafları artık saklanmıyor ({why}); maç sürüyor, kaydı eksiksiz.",
        "no_play_expected": "Şu an oyun beklenmiyor.",
        "manual_ambiguous": "'{text}' birden çok oyuna uyuyor: {options}.",
        "manual_illegal": "'{text}' kurala uygun değil: {rules}.",
        "manual_unreadable": "'{text}' okunamadı: {detail}.",
        "director_called": "Hakem çağrıldı{by}. İki saat de durdu.",
        "pin_refused": "Hakem PIN'i yanlış: hiçbir şey değişmedi.",
        "pin_locked": "Arka arkaya {attempts} yanlış hakem PIN'i: yeni deneme {seconds} sn sonra.",
        "override_refused": "Hakemin '{command}' kararı şimdi uygulanamaz ({reason}).",
        "resumed": "Hakem oyunu sürdürüyor.",
        "play_undone": "Hakem son oyunu geri aldı: {player} yeniden oynar.",
        "policy_set": "Kural dışı oyun politikası: {policy}.",
        "time_set": "Hakem {player} için kalan süreyi {ms} ms yaptı.",
        "mode_set": "Mod: {mode}.",
        "calibrated": "Hakem kamerayı yeniden ayarladı ({how}): köşeler {corners}. Maç sürüyor.",
        "dice_voided": "Hakem zarı geçersiz saydı ({player}): yeniden atın.",
        "dice_set": "Hakem zarı düzeltti ({player}): {dice}.",
        "match_is_over": "Maç bitti.",
        "name_double_first": "{player} önce oynayacağı çifti söylemeli.",
        "play_passed_first": "{player} önce kendisine geçen zarları ({numbers}) oynamalı.",
        "double_named": "{player} {dice} diyor.",
        "play_halted": "Hakem sürdürene kadar oyun durdu.",
        "chouette_names_member": "Şuette her küp hareketi küpün sahibini belirtir: o oyuncunun düğmelerini kullanın.",
        "not_a_chouette": "Oyuncu başına küp yalnız şuette olur; bu iki kişilik bir maç.",
        "member_double": "{member} kutuya ({box}) küpü çeviriyor: {value}.",
        "member_double_box": "Kutu ({box}) {member} oyuncusuna küpü çeviriyor: {value}.",
        "member_take": "{member} kabul etti: {member} oyuncusunun küpü {value}.",
        "member_take_box": "Kutu ({box}) {member} oyuncusunun küpünü kabul etti: küp {value}.",
        "member_drop": "{member} reddetti: {points} sayı öder ve bu oyundan çıkar.",
        "member_drop_box": "Kutu ({box}) {member} oyuncusunun küpünü reddetti: {member} oyuncusuna {points} sayı öder.",
        "member_beaver": "{member} beaver dedi: {member} oyuncusunun küpü {value}.",
        "member_beaver_box": "Kutu ({box}) {member} oyuncusunun küpüne beaver dedi: küp {value}, kutuda.",
        "member_raccoon": "{member} raccoon dedi: küp {value}.",
        "member_raccoon_box": "Kutu ({box}) raccoon dedi: {member} oyuncusunun küpü {value}.",
        "member_cube_refused": "{by}, {member} oyuncusunun küpünde bunu yapamaz: {rule_text}.",
        "captain_passes": "{previous} oyun dışı: takımın pullarını artık {captain} oynar.",
        "chouette_game_over_box": "Kutu ({box}) takıma karşı kazandı: {kind}.",
        "chouette_game_over_team": "Takım (kaptan {captain}) kutuya ({box}) karşı kazandı: {kind}.",
        "chouette_settled": "Kutuyla ({box}) hesap: {settled}.",
        "ledger": "Hesap: {ledger}.",
        "line_turns_stays": "{box} kutuda kalıyor; sıra {line} (kaptan {captain}).",
        "line_turns_moves": "Yeni kutu {box}; sıra {line} (kaptan {captain}).",
    },
}


# A device's faults: the device's, never a player's (app.referee.handling.Step.device_fault).
_RULINGS["en"].update(
    {
        "device_fault_board_late": "Device fault: the sensing board sent an old reading again; it is ignored. No "
        "player is at fault.",
        "device_fault_clock_time": "Device fault: the clock reported impossible times ({white_s} s and {black_s} s "
        "left; this match allows at most {limit_s} s): they are ignored, the press counts. No player is at fault.",
        "device_fault_thrower_unknown": "Device fault: the camera saw a throw while an answer is awaited, but not "
        "who threw ({reason}): nobody is blamed.",
        "device_fault_camera_disagrees": "The camera and the sensing board see the checkers differently: the "
        "director decides. No player is at fault.",
    }
)
# A play the camera's reading of the checkers leaves to the players (app.referee.handlers.camera).
_RULINGS["en"].update(
    {
        "play_asked": "{player}: the camera's reading fits more than one play: pick it or type it ({options}).",
        "play_asked_unsure": "{player}: the camera is not sure where the checkers stand: pick the play or type it "
        "({options}).",
    }
)
_RULINGS["tr"].update(
    {
        "play_asked": "{player}: kameranın okuduğu diziliş birden çok oyuna uyuyor: oyunu seçin ya da yazın "
        "({options}).",
        "play_asked_unsure": "{player}: kamera pulların yerinden emin değil: oyunu seçin ya da yazın ({options}).",
    }
)
_RULINGS["tr"].update(
    {
        "device_fault_board_late": "Cihaz arızası: algılayıcı tahta eski bir okumayı yeniden gönderdi; dikkate "
        "alınmadı. Oyuncunun kusuru yok.",
        "device_fault_clock_time": "Cihaz arızası: saat olanaksız süreler bildirdi ({white_s} sn ve {black_s} sn "
        "kaldı; bu maçta en çok {limit_s} sn olabilir): dikkate alınmadı, saate basış sayıldı. Oyuncunun kusuru yok.",
        "device_fault_thrower_unknown": "Cihaz arızası: kamera yanıt beklenirken bir atış gördü, ama kimin attığını "
        "göremedi ({reason}): kimse suçlanmaz.",
        "device_fault_camera_disagrees": "Kamera ile algılayıcı tahta pulları farklı görüyor: hakem karar verir. "
        "Oyuncunun kusuru yok.",
    }
)

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "single": "a single game",
        "gammon": "a gammon (mars)",
        "backgammon": "a backgammon (katmerli mars)",
        "cocked": "a die is cocked",
        "wrong_half": "the dice are not in the thrower's right-hand half",
        "off_board": "a die left the board",
        "dice_count": "not exactly two dice were seen",
        "unreadable": "the dice cannot be read",
        "low_confidence": "a value is hard to read",
        "borderline_cocked": "a die may be cocked",
        "leans_on_nothing": "cocked, with nothing to lean on",
        "near_bar": "a die lies near the bar",
        "near_frame": "a die lies near the frame",
        "near_picture_edge": "a die lies at the picture's edge",
        "third_object": "a third object was seen",
        "die_unseen": "a die may lie where none was read",
        "and": " and ",
        "clock": "clock",
        "board": "sensing board",
        "camera": "camera",
        "dropped": " (double refused)",
        "resigned": " (resigned)",
        "borne off": "",
        "mother pinned": " (mother pinned)",
        "points": "",
        "time": " on time",
        "crawford": " (Crawford game: no cube)",
        "choice": " {chooser} chooses: accept as made or correct.",
        "must_correct": " The play must be corrected.",
        "starts_with": " and plays {dice}",
        "throws_again": " and throws both dice",
        "legal_moves": "the opponent chooses (accept or correct)",
        "always_correct": "always corrected",
        "tournament": "tournament (no aids)",
        "casual": "casual (aids shown)",
        "not_halted": "play is not stopped",
        "nothing_to_undo": "no play to take back in this game",
        "no_dice_to_change": "no dice waiting to be played",
        "bad_dice": "give two dice such as 5-3",
        "unknown_policy": "unknown policy",
        "unknown_mode": "unknown mode",
        "bad_corners": "give the board's four corners as x,y",
        "taps": "corners tapped",
        "markers": "from the corner markers",
        "off": "off",
        "bar": "bar",
        "none": "none",
        "no_play": "no move (the dice could not be played)",
    },
    "tr": {
        "single": "tek oyun",
        "gammon": "mars",
        "backgammon": "katmerli mars",
        "cocked": "yan duran zar (kırık zar)",
        "wrong_half": "zarlar atanın sağ yarısına düşmedi",
        "off_board": "zar tahtanın dışına düştü",
        "dice_count": "tam iki zar görülmedi",
        "unreadable": "zarlar okunamadı",
        "low_confidence": "bir zar zor okunuyor",
        "borderline_cocked": "bir zar yan duruyor (kırık) olabilir",
        "leans_on_nothing": "yan duran (kırık) okunan zarın dayanacağı bir şey yok",
        "near_bar": "bir zar bara yakın",
        "near_frame": "bir zar kenara yakın",
        "near_picture_edge": "bir zar görüntünün kenarında",
        "third_object": "üçüncü bir nesne görüldü",
        "die_unseen": "okunmayan bir zar olabilir",
        "and": " ve ",
        "clock": "Saat",
        "board": "Algılayıcı tahta",
        "camera": "Kamera",
        "dropped": " (küp reddedildi)",
        "resigned": " (pes etti)",
        "borne off": "",
        "mother pinned": " (ana pul kapıldı)",
        "points": "",
        "time": " (süreden)",
        "crawford": " (Crawford oyunu: küp yok)",
        "choice": " Seçim {chooser} oyuncusunda: oynandığı gibi kabul ya da düzeltme.",
        "must_correct": " Oyun düzeltilmeli.",
        "starts_with": " ve {dice} oynar",
        "throws_again": " ve iki zarı yeniden atar",
        "legal_moves": "rakip seçer (kabul ya da düzeltme)",
        "always_correct": "her zaman düzeltilir",
        "tournament": "turnuva (yardım yok)",
        "casual": "serbest (yardımlar açık)",
        "not_halted": "oyun durmuş değil",
        "nothing_to_undo": "bu oyunda geri alınacak oyun yok",
        "no_dice_to_change": "oynanmayı bekleyen zar yok",
        "bad_dice": "5-3 gibi iki zar girin",
        "unknown_policy": "bilinmeyen politika",
        "unknown_mode": "bilinmeyen mod",
        "bad_corners": "tahtanın dört köşesini x,y olarak verin",
        "taps": "köşelere dokunularak",
        "markers": "köşe işaretlerinden",
        "off": "toplama",
        "bar": "bar",
        "none": "yok",
        "no_play": "oyun yok (zar yandı)",
    },
}

_VIOLATIONS_TR = {
    "checker_count_changed": "tahtadaki pul sayısı değişti",
    "invalid_position": "bu diziliş olamaz: iki rengin pulları aynı hanede",
    "opponent_moved": "rakibin pulları oynatıldı",
    "wrong_direction": "bir pul geri gitti",
    "bar_first": "bardaki pullar önce girmeli",
    "blocked_point": "pul kapalı bir haneye kondu ya da oradan geçti",
    "not_all_home": "pul toplamak için bütün pullar iç alanda olmalı",
    "bear_off_higher": "daha yüksek hanede pul varken alçaktaki pul toplandı",
    "head_rule": "bu elde baştan yalnız bir pul çıkabilir (ilk elde 6-6, 4-4, 3-3 ile iki)",
    "six_prime": "önünde rakip pulu yokken art arda altı hane tutulamaz",
    "must_bear_off": "pul toplayabilen zar pul toplamalı (Türk tavlası)",
    "no_move": "oynanabilen zar oynanmadı",
    "must_use_both": "iki zar da oynanabiliyorsa ikisi de oynanmalı",
    "must_use_larger": "yalnız bir zar oynanabiliyorsa büyüğü oynanmalı",
    "must_play_more": "çift zar oynanabildiği kadar oynanmalı",
    "dice_mismatch": "oynanan pullar zarlara uymuyor",
}

_CUBE_RULES_TR = {
    "no_cube": "bu oyun küpsüz oynanır",
    "game_over": "oyun bitti",
    "crawford": "Crawford oyununda küp çevrilmez",
    "not_your_turn": "küp yalnız kendi sırasında çevrilir",
    "after_roll": "küp zar atmadan önce çevrilir",
    "not_owner": "küpü yalnız sahibi çevirebilir (ortadayken ikisi de)",
    "maximum": "küp en yüksek değerini geçemez",
    "offer_pending": "cevap bekleyen bir küp teklifi var",
    "no_offer": "cevaplanacak küp teklifi yok",
    "not_doubled": "yalnız küp teklif edilen oyuncu kabul, red ya da beaver diyebilir",
    "money_only": "beaver, raccoon ve otomatik katlama yalnız paralı oyunda olur",
    "beavers_off": "bu oturumda beaver yok",
    "raccoons_off": "bu oturumda raccoon yok",
    "no_beaver": "raccoon yalnız beaver'dan hemen sonra küpü çeviren der",
    "automatic_limit": "bu oyunun otomatik katlamaları bitti",
}


def violation_text(name: str, language: str) -> str:
    """A broken rule (``rules.judge.Violation`` name, lower case) as a sentence."""
    if language == "tr" and name in _VIOLATIONS_TR:
        return _VIOLATIONS_TR[name]
    try:
        return Violation[name.upper()].value
    except KeyError:
        return name.replace("_", " ")


def word(key: str, language: str) -> str:
    return _WORDS.get(language, _WORDS["en"]).get(key, _WORDS["en"].get(key, key))


def render(ruling: Ruling, language: str = "en", players: tuple[str, str] = ("White", "Black")) -> str:
    """The sentence for ``ruling`` in ``language`` ("tr" or "en") with the players' names."""
    templates = _RULINGS.get(language, _RULINGS["en"])
    key = _template_key(ruling)
    template = templates.get(key) or _RULINGS["en"].get(key)
    if template is None:
        return f"{ruling.code}: {dict(ruling.params)}"
    names = ruling.params.get("names")
    if isinstance(names, list) and len(names) == 2:  # a chouette ruling names its box and captain itself
        players = (str(names[0]), str(names[1]))
    values = _values(ruling.params, language, players)
    values["starts"] = ""
    if ruling.code == "opening_won":
        high, low = sorted((int(ruling.params["white"]), int(ruling.params["black"])), reverse=True)
        key = "starts_with" if ruling.params.get("plays") else "throws_again"
        values["starts"] = word(key, language).format(dice=f"{high}-{low}")
    if ruling.code in ("illegal_play", "unfinished_play"):
        chooser = _name(_other(ruling.params.get("player")), players)
        values["choice"] = word("choice" if ruling.params.get("choice") else "must_correct", language).format(
            chooser=chooser
        )
    if ruling.code in ("cube_refused", "member_cube_refused"):
        rule = str(ruling.params.get("rule", ""))
        values["rule_text"] = _CUBE_RULES_TR.get(rule, "") if language == "tr" else ""
        values["rule_text"] = values["rule_text"] or str(ruling.params.get("detail", rule))
    if ruling.code == "director_called":
        by = ruling.params.get("player")
        values["by"] = f" ({_name(by, players)})" if by else ""
    if ruling.code == "play_ok" and not ruling.params.get("play"):
        values["play"] = word("no_play", language)  # a turn with no legal move: say so, not an empty notation
    if ruling.code == "link_down":
        detail = ruling.params.get("detail")
        values["detail"] = f": {detail}" if detail else ""
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return f"{ruling.code}: {dict(ruling.params)}"


def _template_key(ruling: Ruling) -> str:
    """Chouette rulings read differently for the box and for a member, for the box's win and the team's."""
    code, params = ruling.code, ruling.params
    if code.startswith("member_") and code != "member_cube_refused":
        return code + "_box" if params.get("by") == params.get("box") else code
    if code == "chouette_game_over":
        return f"{code}_{params.get('side')}"
    if code == "line_turns":
        return code + ("_stays" if params.get("stays") else "_moves")
    return code


def _other(color: Any) -> str | None:
    return {"white": "black", "black": "white"}.get(str(color))


def _name(color: Any, players: tuple[str, str]) -> str:
    if color == "white":
        return players[0]
    if color == "black":
        return players[1]
    return "-"


def _values(params: Mapping[str, Any], language: str, players: tuple[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in params.items():
        if key in ("player", "waiting", "mover", "chooser", "on_turn", "flag", "running"):
            values[key] = _name(value, players)
        elif key == "dice" and isinstance(value, list):
            values[key] = "-".join(str(v) for v in value)
        elif key == "score" and isinstance(value, list):
            values[key] = f"{value[0]}-{value[1]}"
        elif key == "rules" and isinstance(value, list):
            values[key] = "; ".join(violation_text(str(v), language) for v in value) or "-"
        elif key == "numbers" and isinstance(value, list):
            values[key] = ", ".join(str(v) for v in value)
        elif key == "doubts" and isinstance(value, list):
            values[key] = ", ".join(word(str(v), language) for v in value)
        elif key == "asked" and isinstance(value, list):
            values[key] = word("and", language).join(_name(v, players) for v in value)
        elif key in ("problems", "options", "legal") and isinstance(value, list):
            values[key] = "; ".join(str(v) for v in value)
        elif key == "targets" and isinstance(value, list):
            values[key] = ", ".join(word("off", language) if v == 0 else str(v) for v in value) or word(
                "none", language
            )
        elif key == "point":
            values[key] = word("bar", language) if value == 25 else value
        elif key in ("damaged", "lost") and language == "tr":
            values[key] = str(value).replace(".", ",")  # a decimal comma in Turkish
        elif key in ("reason", "kind", "device", "policy", "mode", "how"):
            values[key] = word(str(value), language)
        elif key == "ending":
            values[key] = word(str(value), language)
        elif key == "end":
            values[key] = word(str(value), language)
        elif key in ("settled", "ledger") and isinstance(value, list):
            values[key] = ", ".join(f"{name} {points:+d}" for name, points in value)
        elif key == "line" and isinstance(value, list):
            values[key] = ", ".join(str(name) for name in value)
        elif key == "crawford":
            values[key] = word("crawford", language) if value else ""
        else:
            values[key] = value
    return values
