// The rules of Hokm for players, written from RULES.md (sections 1–9), Persian first.
// Static, trusted HTML (no user input).

export const RULES_FA = `
<h2>۱. واژه‌ها</h2>
<table>
<tr><th>واژه</th><th>معنی</th></tr>
<tr><td>برگ / کارت</td><td>یکی از ۵۲ برگ دسته</td></tr>
<tr><td>خال</td><td>پیک ♠، دل ♥، خشت ♦، گشنیز (خاج) ♣</td></tr>
<tr><td>حکم</td><td>خالی که حاکم برای یک هَند انتخاب می‌کند</td></tr>
<tr><td>حاکم</td><td>بازیکنی که حکم را انتخاب می‌کند و دست اول را شروع می‌کند</td></tr>
<tr><td>دست</td><td>چهار برگ، از هر بازیکن یکی</td></tr>
<tr><td>خال زمین</td><td>خالِ نخستین برگ هر دست</td></tr>
<tr><td>بریدن</td><td>بازی کردن حکم روی خال زمینی که حکم نیست</td></tr>
<tr><td>هَند</td><td>یک بار پخش کامل برگ‌ها، تا یک تیم آن را ببرد</td></tr>
<tr><td>بازی / دور</td><td>هَندها تا یک تیم به امتیاز پایان برسد</td></tr>
<tr><td>کُت</td><td>هَندی که هفت بر صفر برده شود</td></tr>
<tr><td>حاکم‌کُتی (پَر کُت، سه‌کتره)</td><td>تیم حاکم صفر دست گرفته است</td></tr>
<tr><td>بام</td><td>تیمی که هفت بر صفر برده، ادامه می‌دهد و هر ۱۳ دست را می‌برد</td></tr>
<tr><td>پَر بام (حاکم بام)</td><td>تیمِ غیرِ حاکم هر ۱۳ دست را می‌برد</td></tr>
<tr><td>اتاق / میز</td><td>میزی با کد ورود که سازنده‌اش صاحب آن است</td></tr>
<tr><td>ربات</td><td>بازیکن رایانه‌ای روی یک صندلی</td></tr>
</table>

<h2>۲. میز، دسته و ترتیب</h2>
<ul>
<li>چهار بازیکن در دو تیم دونفره؛ هم‌تیمی‌ها <b>روبه‌روی</b> هم می‌نشینند.</li>
<li>بازی و پخش <b>خلاف جهت عقربه‌های ساعت</b> است: نفر بعدی همیشه سمت راست شماست.</li>
<li>یک دستهٔ ۵۲ برگی بدون ژوکر. ترتیب برگ‌ها در هر خال از بالا به پایین: <b>آس، شاه، بی‌بی، سرباز، ۱۰، ۹، ۸، ۷، ۶، ۵، ۴، ۳، ۲</b>.</li>
<li>خال‌ها تا وقتی حاکم حکم را بگوید برابرند؛ بعد از آن هر حکمی از هر برگ غیرحکم بالاتر است (۲ حکم از آس هر خال دیگری بالاتر است).</li>
</ul>

<h2>۳. انتخاب نخستین حاکم</h2>
<ul>
<li><b>آس‌کشی</b> (پیش‌فرض): برگ‌ها یکی‌یکی و رو، به ترتیب بازی و از یک صندلی تصادفی پخش می‌شوند؛ نخستین کسی که آس بگیرد حاکم است. همه این پخش را می‌بینند.</li>
<li><b>تصادفی</b>: سرور یک صندلی را تصادفی انتخاب می‌کند.</li>
<li><b>به انتخاب صاحب اتاق</b>.</li>
</ul>
<p>در آغاز هر بازی تازه در همان اتاق، صاحب اتاق انتخاب می‌کند: همان حاکم پایان بازی قبل، آس‌کشی، تصادفی یا انتخاب خودش. «همان حاکم» یعنی حاکمی که هَند آخر به جا گذاشت: اگر تیم حاکم هَند آخر را برده باشد همان حاکم می‌ماند، وگرنه حاکمی به نفر سمت راست او می‌رسد.</p>

<h2>۴. پخش و انتخاب حکم</h2>
<ol>
<li>پخش‌کننده نفرِ پیش از حاکم است، پس نخستین برگ به حاکم می‌رسد. در بازی برخط، سرور بُر می‌زند.</li>
<li>به هر بازیکن <b>۵</b> برگ داده می‌شود، اول به حاکم.</li>
<li>حاکم پنج برگش را می‌بیند و یکی از چهار خال را <b>حکم</b> می‌کند. زمان آن ۲۰ ثانیه است؛ اگر تمام شود، سرور مانند یک بازیکن معقول برایش انتخاب می‌کند.</li>
<li>سپس به هر نفر ۴ برگ و باز ۴ برگ دیگر داده می‌شود (۵-۴-۴): هر نفر ۱۳ برگ.</li>
<li>حکم در تمام هَند به همه نشان داده می‌شود.</li>
</ol>
<p>پخش دوباره (گزینهٔ اختیاری، پیش‌فرض خاموش): اگر در پنج برگ اول حاکم هیچ برگی ۱۰ یا بالاتر نباشد، حاکم می‌تواند پخش دوباره بخواهد؛ و اگر پس از پخش کامل کسی هیچ حکمی نداشته باشد، هَند دوباره پخش می‌شود.</p>

<h2>۵. بازی یک هَند</h2>
<ul>
<li>حاکم دست اول را شروع می‌کند؛ برندهٔ هر دست، دست بعد را شروع می‌کند.</li>
<li>نخستین برگ هر دست <b>خال زمین</b> را تعیین می‌کند.</li>
<li><b>پیروی از خال</b>: هر کس از خال زمین برگ دارد باید از همان خال بازی کند. فقط کسی که از خال زمین ندارد می‌تواند هر برگی بازی کند: حکم (بریدن) یا برگ خال دیگر. هیچ اجباری به بالاتر رفتن یا بریدن نیست.</li>
<li>برندهٔ دست: بالاترین حکمِ بازی‌شده، و اگر حکمی نیامده باشد، بالاترین برگِ خال زمین. برگ خال‌های دیگر هیچ‌گاه نمی‌برند.</li>
<li>دست‌های بازی‌شده برگردانده می‌شوند؛ برنامه می‌تواند دست قبل و شمار دست‌های هر تیم را نشان دهد.</li>
<li>حرکت غیرمجاز (پیروی نکردن از خال در حالی که دارید، برگی که ندارید، بازی خارج از نوبت) با دلیل روشن <b>پذیرفته نمی‌شود</b> و چیزی تغییر نمی‌کند.</li>
</ul>

<h2>۶. پایان هَند و امتیاز</h2>
<p>هَند همین که تیمی <b>۷ دست</b> ببرد تمام می‌شود (مگر بام در کار باشد).</p>
<table>
<tr><th>نتیجه</th><th>شرط</th><th>امتیاز</th></tr>
<tr><td>برد ساده</td><td>برنده ۷ دست، بازنده ۱ تا ۶ دست</td><td>۱</td></tr>
<tr><td>کُت</td><td>بازنده صفر دست و بازنده تیم حاکم <b>نیست</b></td><td>۲</td></tr>
<tr><td>حاکم‌کُتی</td><td>بازنده صفر دست و بازنده تیم حاکم <b>است</b></td><td>۳</td></tr>
</table>
<p><b>بام</b> (اختیاری، پیش‌فرض خاموش): تیمی که به هفت بر صفر رسیده می‌تواند تصمیم بگیرد برای هر ۱۳ دست ادامه دهد.</p>
<ul>
<li>بام موفقِ تیم حاکم: همان تیم یکباره کل بازی را می‌برد.</li>
<li>پَر بام (بام موفق تیم غیرحاکم): یکباره کل بازی را می‌برد و برای امتیاز حساب‌ها دو بازی حساب می‌شود.</li>
<li>بام ناموفق (تیم دیگر یک دست ببرد): هَند همان‌جا تمام می‌شود. بسته به گزینه، تیم بام‌کننده ۳ امتیاز منفی می‌گیرد، یا امتیاز کُتی را که داشت نگه می‌دارد.</li>
</ul>
<p>حاکم پس از هَند: اگر تیم حاکم هَند را برد، همان نفر حاکم می‌ماند؛ وگرنه نفر بعدی (سمت راست حاکم) حاکم می‌شود.</p>

<h2>۷. پایان بازی</h2>
<ul>
<li>نخستین تیمی که به <b>امتیاز پایان</b> برسد (پیش‌فرض ۷؛ ۳، ۵ و ۱۰ هم رایج است) بازی را می‌برد. امتیاز اضافه به بازی بعد منتقل نمی‌شود.</li>
<li>پس از بازی، صاحب اتاق بازی تازه‌ای در همان اتاق شروع می‌کند یا آن را می‌بندد؛ کد اتاق می‌ماند.</li>
</ul>

<h2>۸. بازی برخط</h2>
<ul>
<li>اتاق کد ورود کوتاه و یک صاحب دارد. صاحب اتاق قوانین را پیش از نخستین هَند تعیین می‌کند، می‌تواند روی هر صندلی خالی ربات بگذارد (پس یک، دو یا سه نفر هم می‌توانند بازی کنند) و هر وقت بخواهد بازی را ببندد.</li>
<li>پیش از نخستین دست، قوانینِ این بازی به همه نشان داده می‌شود.</li>
<li>زمان: انتخاب حکم ۲۰ ثانیه، هر نوبت ۱۵ ثانیه (بسته به نسخه ۳۰). اگر زمان تمام شود، سرور یک برگ مجاز و معقول به جای بازیکن بازی می‌کند.</li>
<li>قطع اتصال: جای بازیکن نگه داشته می‌شود و تا برگردد یک ربات به جایش بازی می‌کند؛ وقتی برگردد فوراً بازی را با وضعیت کامل در دست می‌گیرد. اگر ۳۰۰ ثانیه نیاید، به بقیه خبر داده می‌شود که بازی ۳۰۰ ثانیهٔ دیگر لغو می‌شود مگر برگردد.</li>
<li>اگر هیچ بازیکن انسانی وصل نباشد، بازی <b>متوقف</b> می‌شود و با بازگشت یک نفر از همان‌جا ادامه می‌یابد.</li>
<li>کسی که عمداً بازیِ در جریان را ترک کند، یک باخت برایش ثبت می‌شود.</li>
<li>امتیاز حساب: برای هر بازیِ برده، هر بازیکن تیم برنده ۱+ امتیاز (پَر بام ۲+) می‌گیرد. ریتینگ فقط در بازی‌های سریع تغییر می‌کند؛ رده‌ها از پایین به بالا: تازه‌وارد، سرباز، بی‌بی، شاه، آس، حاکم.</li>
<li>گفتگو: پیش از بازی، میان هَندها و پس از بازی متن آزاد مجاز است. از پخش تا پایان هر هَند فقط عبارت‌های آماده و شکلک، تا کسی نتواند برگ‌هایش را به هم‌تیمی بگوید. پیوند و شماره تلفن هرگز فرستاده نمی‌شود.</li>
</ul>

<h2>۹. قوانین اختیاری (قوانین خانگی)</h2>
<table>
<tr><th>گزینه</th><th>پیش‌فرض</th></tr>
<tr><td>امتیاز پایان بازی</td><td>۷</td></tr>
<tr><td>امتیاز کُت / حاکم‌کُتی</td><td>۲ / ۳</td></tr>
<tr><td>بام</td><td>ندارد</td></tr>
<tr><td>بام ناموفق</td><td>منفی ۳ (یا کُت می‌ماند)</td></tr>
<tr><td>نخستین حاکم</td><td>آس‌کشی (یا تصادفی، یا به انتخاب صاحب اتاق)</td></tr>
<tr><td>حاکم بازی بعد</td><td>همان حاکم</td></tr>
<tr><td>پخش دوباره برای پنج برگ ضعیف / نبودِ حکم</td><td>ندارد</td></tr>
<tr><td>زمان حکم / نوبت / مهلت بازگشت</td><td>۲۰ / ۱۵ / ۳۰۰ ثانیه</td></tr>
</table>
<p>نسخه‌های آماده: <b>پیش‌فرض</b> (بدون بام، نوبت ۱۵ ثانیه)؛ <b>کلاسیک</b> (بام، بام ناموفق = کُت می‌ماند، هر دو پخش دوباره، نوبت ۳۰ ثانیه)؛ <b>آرام</b> (مثل پیش‌فرض، نوبت ۳۰ ثانیه)؛ <b>با بام</b> (بام، بام ناموفق = منفی ۳، نوبت ۳۰ ثانیه).</p>
<p>هر قانونی را می‌توانید در <a href="#/sim">شبیه‌ساز</a> امتحان کنید.</p>
`;

export const RULES_EN = `
<h2>1. Words</h2>
<table>
<tr><th>word</th><th>meaning</th></tr>
<tr><td>card (برگ)</td><td>one of 52 cards</td></tr>
<tr><td>suit (خال)</td><td>spades ♠, hearts ♥, diamonds ♦, clubs ♣</td></tr>
<tr><td>trump (حکم)</td><td>the suit chosen by the hakem for one hand</td></tr>
<tr><td>hakem (حاکم)</td><td>the player who chooses trump and leads the first trick</td></tr>
<tr><td>trick (دست)</td><td>four cards, one per player</td></tr>
<tr><td>led suit (خال زمین)</td><td>suit of the first card of a trick</td></tr>
<tr><td>cut / ruff (بریدن)</td><td>playing a trump on a non-trump led suit</td></tr>
<tr><td>hand (هَند)</td><td>one full deal, played until a team has won it</td></tr>
<tr><td>game (بازی)</td><td>hands until a team reaches the target score</td></tr>
<tr><td>kot (کُت)</td><td>a hand won 7–0</td></tr>
<tr><td>hakem-kot (حاکم‌کُتی)</td><td>the hakem's team is the team that took 0 tricks</td></tr>
<tr><td>bam (بام)</td><td>a team that won 7–0 goes on and wins all 13 tricks</td></tr>
<tr><td>par-bam (پَر بام)</td><td>the non-hakem team wins all 13 tricks</td></tr>
<tr><td>room (اتاق)</td><td>a table with a join code, owned by its creator</td></tr>
<tr><td>bot (ربات)</td><td>a computer player on a seat</td></tr>
</table>

<h2>2. Table, deck, order</h2>
<ul>
<li>Four players, two teams of two; partners sit <b>opposite</b> each other.</li>
<li>Play and dealing go <b>counter-clockwise</b>: the next player is always the one on your right.</li>
<li>One 52-card deck, no jokers. Rank in every suit, high to low: <b>A K Q J 10 9 8 7 6 5 4 3 2</b>.</li>
<li>Suits are equal until the hakem names trump; then every trump beats every non-trump card (the 2 of trump beats the ace of any other suit).</li>
</ul>

<h2>3. Choosing the first hakem</h2>
<ul>
<li><b>Ace draw</b> (default): cards are dealt face up one at a time, in playing order, from a random seat; the first player to receive an ace is hakem. Everyone sees the draw.</li>
<li><b>Random</b>: the server picks a seat.</li>
<li><b>Manual</b>: the room owner picks the seat.</li>
</ul>
<p>At the start of every new game in the same room the owner chooses: keep the last hakem, ace draw, random, or manual. "Keep" means the hakem the last hand left: the same hakem if their team won that hand, otherwise the player on their right.</p>

<h2>4. Dealing and choosing trump</h2>
<ol>
<li>The dealer is the player before the hakem, so the hakem receives the first card. Online the server shuffles.</li>
<li>Each player receives <b>5</b> cards, the hakem first.</li>
<li>The hakem looks at their 5 cards and names a suit as <b>trump</b>, within 20 seconds; on timeout the server chooses for them as a sensible player would.</li>
<li>Everyone receives 4 more cards, then 4 more (5-4-4): 13 each.</li>
<li>The trump is shown to all players for the whole hand.</li>
</ol>
<p>Optional redeals (off by default): if the hakem's first five hold no card of rank 10 or higher, the hakem may ask for a new deal; if after the full deal a player holds no trump at all, the hand is redealt.</p>

<h2>5. Playing a hand</h2>
<ul>
<li>The hakem leads the first trick; the winner of each trick leads the next.</li>
<li>The first card of a trick sets the <b>led suit</b>.</li>
<li><b>Follow suit</b>: a player holding a card of the led suit must play one. Only a player with no card of the led suit may play any card: a trump (cutting) or a discard. There is no duty to beat, to trump or to over-trump.</li>
<li>Trick winner: the highest trump played, if any; otherwise the highest card of the led suit. Discards of other suits never win.</li>
<li>Played tricks are turned over; the client still shows the last trick and the tricks per team.</li>
<li>An illegal play (not following suit while able, a card not in hand, playing out of turn) is <b>refused</b> with a clear reason; nothing changes.</li>
</ul>

<h2>6. End of a hand and scoring</h2>
<p>A hand ends as soon as a team has won <b>7 tricks</b> (unless a bam is attempted).</p>
<table>
<tr><th>result</th><th>condition</th><th>points</th></tr>
<tr><td>win</td><td>winners took 7, losers 1–6</td><td>1</td></tr>
<tr><td>kot</td><td>losers took 0 and are <b>not</b> the hakem's team</td><td>2</td></tr>
<tr><td>hakem-kot</td><td>losers took 0 and <b>are</b> the hakem's team</td><td>3</td></tr>
</table>
<p><b>Bam</b> (option, off by default): a team at 7–0 may decide to go on for all 13 tricks.</p>
<ul>
<li>Won bam by the hakem's team: that team wins the whole game at once.</li>
<li>Par-bam (won by the non-hakem team): wins the whole game at once and counts as two games for account points.</li>
<li>Failed bam (the other team takes a trick): the hand ends at once; depending on the option the bamming team scores −3, or keeps the kot points it had.</li>
</ul>
<p>Hakem after a hand: if the hakem's team won, the same player stays hakem; otherwise the player on the hakem's right becomes hakem.</p>

<h2>7. End of a game</h2>
<ul>
<li>The first team to reach the <b>target</b> (default 7; 3, 5 and 10 are common) wins. Points beyond the target do not carry over.</li>
<li>After a game the room owner starts a new game in the same room or closes it; the code stays.</li>
</ul>

<h2>8. Online play</h2>
<ul>
<li>A room has a short join code and an owner. The owner sets the rules before the first hand, may put a bot on any empty seat (so one, two or three humans can play), and can close the game at any time.</li>
<li>Before the first trick every player is shown the rules in force.</li>
<li>Time: trump choice 20 s; each turn 15 s (30 in some versions). On timeout the server plays a legal, reasonable card for the player.</li>
<li>Disconnects: the seat is kept and a bot plays for the player until they return; they then take over at once with the full state. After 300 s away the others are told the game ends in another 300 s unless the player returns.</li>
<li>If no human is connected the game <b>pauses</b> and resumes where it was when a human returns.</li>
<li>A player who deliberately leaves a game in progress gets a loss recorded.</li>
<li>Account points: +1 to each player of the winning team per game (+2 for a par-bam). Only quick games change the rating; tiers, low to high: Newcomer, Jack, Queen, King, Ace, Hakem.</li>
<li>Chat: free text before the game, between hands and after the game; from the deal to the end of each hand only preset phrases and emoji, so no one can tell their partner their cards. Links and phone numbers are never delivered.</li>
</ul>

<h2>9. House rules (options)</h2>
<table>
<tr><th>option</th><th>default</th></tr>
<tr><td>points to win</td><td>7</td></tr>
<tr><td>kot / hakem-kot points</td><td>2 / 3</td></tr>
<tr><td>bam</td><td>off</td></tr>
<tr><td>failed bam</td><td>minus 3 (or keeps kot)</td></tr>
<tr><td>first hakem</td><td>ace draw (or random, or the owner picks)</td></tr>
<tr><td>hakem of the next game</td><td>the same hakem</td></tr>
<tr><td>redeal on a weak five / a player without trump</td><td>off</td></tr>
<tr><td>trump / turn / grace time</td><td>20 / 15 / 300 s</td></tr>
</table>
<p>Presets: <b>Default</b> (no bam, 15 s turns); <b>Classic</b> (bam, failed bam keeps kot, both redeals, 30 s turns); <b>Relaxed</b> (the default with 30 s turns); <b>With bam</b> (bam, failed bam −3, 30 s turns).</p>
<p>Every rule can be tried in the <a href="#/sim">simulator</a>.</p>
`;
