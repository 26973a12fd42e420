"""Invented recipe and gardening sites (en, es, zh, de)."""

from __future__ import annotations

import random
from typing import Any

from pytest_websearchbench.sampledata.pages import (
    PageSpec,
    Site,
    SiteGroup,
    compose,
    en_list,
    rand_date,
    slugify,
)

# =========================================================================== recipes (en)

COPPERPOT = Site("www.copperpot-kitchen.example", "Copperpot Kitchen", "en", "recipes")
SALT_EMBER = Site("www.saltandember.example", "Salt & Ember", "en", "recipes")

# name, group, (main0, main1), (extra0, extra1, extra2), diet, minutes, temp, serves, look-alike, query phrases
EN_DISHES = [
    (
        "Smoked paprika red lentil soup",
        "soup",
        ("red lentils", "smoked paprika"),
        ("carrot", "cumin", "lemon juice"),
        ("vegan", "gluten-free"),
        25,
        None,
        4,
        "lentil",
        ("red lentil soup", "smoked paprika"),
    ),
    (
        "Green lentil and chard stew",
        "stew",
        ("green lentils", "rainbow chard"),
        ("garlic", "thyme", "tomato passata"),
        ("vegan",),
        40,
        None,
        4,
        "lentil",
        ("green lentil stew", "chard"),
    ),
    (
        "Roasted squash and sage soup",
        "soup",
        ("butternut squash", "sage"),
        ("shallots", "nutmeg", "vegetable stock"),
        ("vegetarian", "gluten-free"),
        35,
        200,
        4,
        "squash",
        ("roasted squash soup", "sage"),
    ),
    (
        "Charred corn and black bean salad",
        "salad",
        ("sweetcorn", "black beans"),
        ("lime", "coriander", "red onion"),
        ("vegan", "gluten-free"),
        15,
        None,
        2,
        None,
        ("black bean salad", "charred corn"),
    ),
    (
        "Buckwheat and beetroot salad",
        "salad",
        ("toasted buckwheat", "roasted beetroot"),
        ("feta", "dill", "walnuts"),
        ("vegetarian",),
        30,
        190,
        4,
        None,
        ("beetroot salad", "buckwheat"),
    ),
    (
        "Cardamom plum crumble",
        "dessert",
        ("plums", "ground cardamom"),
        ("oats", "brown sugar", "cold butter"),
        ("vegetarian",),
        35,
        180,
        6,
        "crumble",
        ("plum crumble", "cardamom"),
    ),
    (
        "Rhubarb and ginger crumble",
        "dessert",
        ("rhubarb", "stem ginger"),
        ("oats", "demerara sugar", "cold butter"),
        ("vegetarian",),
        40,
        180,
        6,
        "crumble",
        ("rhubarb crumble", "ginger"),
    ),
    (
        "Rye and caraway loaf",
        "bread",
        ("rye flour", "caraway seeds"),
        ("sourdough starter", "black treacle", "sea salt"),
        ("vegan",),
        50,
        220,
        10,
        "loaf",
        ("rye bread", "caraway"),
    ),
    (
        "Spelt and honey loaf",
        "bread",
        ("spelt flour", "runny honey"),
        ("dried yeast", "warm milk", "rolled oats"),
        ("vegetarian",),
        40,
        200,
        10,
        "loaf",
        ("spelt loaf", "honey"),
    ),
    (
        "Lemon thyme chicken traybake",
        "bake",
        ("chicken thighs", "lemon thyme"),
        ("new potatoes", "garlic", "green olives"),
        ("gluten-free", "contains meat"),
        45,
        210,
        4,
        "traybake",
        ("chicken traybake", "lemon thyme"),
    ),
    (
        "Miso mushroom traybake",
        "bake",
        ("chestnut mushrooms", "white miso"),
        ("firm tofu", "spring onions", "sesame seeds"),
        ("vegan",),
        30,
        200,
        3,
        "traybake",
        ("mushroom traybake", "miso"),
    ),
    (
        "Walnut and kale pesto pasta",
        "pasta",
        ("kale", "toasted walnuts"),
        ("parmesan", "garlic", "linguine"),
        ("vegetarian",),
        20,
        None,
        4,
        "pesto",
        ("kale pesto pasta", "walnut"),
    ),
    (
        "Saffron tomato orzo",
        "pasta",
        ("orzo", "saffron"),
        ("cherry tomatoes", "garlic", "basil"),
        ("vegan",),
        25,
        None,
        4,
        None,
        ("orzo", "saffron tomato"),
    ),
    (
        "Coconut chickpea curry",
        "stew",
        ("chickpeas", "coconut milk"),
        ("ginger", "turmeric", "baby spinach"),
        ("vegan", "gluten-free"),
        30,
        None,
        4,
        "curry",
        ("chickpea curry", "coconut"),
    ),
    (
        "Sweet potato and peanut curry",
        "stew",
        ("sweet potatoes", "peanut butter"),
        ("lime", "red chilli", "coconut milk"),
        ("vegan", "gluten-free"),
        35,
        None,
        4,
        "curry",
        ("sweet potato curry", "peanut"),
    ),
    (
        "Brown butter pear cake",
        "dessert",
        ("pears", "brown butter"),
        ("ground almonds", "vanilla", "eggs"),
        ("vegetarian",),
        55,
        170,
        8,
        None,
        ("pear cake", "brown butter"),
    ),
    (
        "Fennel and blood orange slaw",
        "salad",
        ("fennel", "blood oranges"),
        ("yoghurt", "mint", "pistachios"),
        ("vegetarian", "gluten-free"),
        10,
        None,
        4,
        None,
        ("fennel slaw", "blood orange"),
    ),
    (
        "Leek and potato soup with chives",
        "soup",
        ("leeks", "floury potatoes"),
        ("chives", "butter", "chicken stock"),
        ("gluten-free",),
        30,
        None,
        4,
        None,
        ("leek and potato soup", "chives"),
    ),
]

EN_NOUN = {
    "soup": "soup",
    "stew": "stew",
    "salad": "salad",
    "dessert": "dessert",
    "bread": "loaf",
    "bake": "traybake",
    "pasta": "pasta dish",
}
EN_GROUP_TITLE = {
    "soup": "Soups",
    "stew": "Stews and curries",
    "salad": "Salads",
    "dessert": "Puddings and cakes",
    "bread": "Home-baked breads",
    "bake": "Traybakes",
    "pasta": "Pasta suppers",
}

EN_METHOD = {
    "soup": "Simmer the soup for {minutes} minutes, until everything is completely soft, then blend as smooth as you like.",
    "stew": "Cover the pot and let the stew cook gently for {minutes} minutes, stirring from time to time.",
    "salad": "The salad takes about {minutes} minutes to put together from start to finish.",
    "dessert": "Bake at {temp}°C for {minutes} minutes, until golden on top and bubbling at the edges.",
    "bread": "Bake the loaf at {temp}°C for {minutes} minutes, until it sounds hollow when tapped underneath.",
    "bake": "Roast the tray at {temp}°C for {minutes} minutes, turning everything once halfway through.",
    "pasta": "Cook the {main0} for about {minutes} minutes in well-salted water, or until just tender.",
}
EN_SALAD_OVEN = "Roast the {main1} at {temp}°C first; the whole salad takes about {minutes} minutes."

EN_LEADS = [
    "{name} is a {adj} {noun} built around {main0} and {main1}.",
    "This {adj} {noun} leans on {main0} and {main1} for most of its flavour.",
    "Our {lname} is {adj}, forgiving and built on {main0} with {main1}.",
    "If you have {main0} and {main1} in the cupboard, this {adj} {noun} is halfway made already.",
]
EN_RECIPE_FILLERS = [
    "A heavy-based pan helps the {main0} cook evenly without catching on the bottom.",
    "Taste before serving and adjust the seasoning with salt and a little more {extra1}.",
    "Leftovers keep in the fridge for up to three days in a covered container.",
    "If you are cooking for a crowd, the quantities double without any change to the method.",
    "We tested this version {n} times, adjusting the balance of {main1} each round.",
    "Serve it with warm flatbread, a spoon of yoghurt or a crisp green salad.",
    "Readers often ask whether the {extra0} can be swapped; it can, though the flavour shifts slightly.",
    "Prepare the {extra0} and {extra2} before you start so the cooking flows without pauses.",
    "A squeeze of citrus at the very end lifts the whole {noun}.",
    "Children usually like the mild version, so add heat at the table instead of in the pot.",
    "Use the best {main1} you can find, because it carries most of the flavour.",
    "It suits busy weeknights as well as slow weekend lunches.",
    "Keep a little extra water nearby in case the texture turns too thick.",
    "Timings are a guide, since every oven and hob behaves a little differently.",
    "A pinch of flaky salt on top just before serving adds welcome crunch.",
    "Shopping tip: buy {main0} from a shop with quick turnover so it is fresh.",
    "Write your own adjustments in the margin of the printed card for next time.",
    "The colour deepens as it rests, so do not worry if it looks pale at first.",
    "Chop everything roughly the same size so it cooks at the same pace.",
    "The recipe scales down well for one or two people.",
    "Any neutral oil works here, although a fruity olive oil adds depth.",
    "Cheap {extra1} works perfectly well, so there is no need to hunt for a special brand.",
    "Let it stand for five minutes before serving so the flavours settle.",
]
EN_TIPS_FILLERS = [
    "Cool it quickly, then portion it into shallow boxes before chilling.",
    "Label every box with the date so nothing lingers at the back of the freezer.",
    "Reheat gently and only once, adding a splash of water if it has thickened.",
    "For a lunchbox, pack the garnish separately so it stays fresh.",
    "Swapping {main0} for a similar ingredient changes the cooking time a little.",
    "Doubling the {extra2} makes it richer without masking the {main1}.",
    "The flavour is often better on the second day, once everything has mingled.",
    "Leftovers make a good base for a quick supper with some crusty bread.",
    "A microwave works, but stir halfway so the centre heats through.",
    "Freeze in flat bags so portions thaw faster and stack neatly.",
    "Several readers add {extra0} at the end instead of the start for a fresher taste.",
    "If you are avoiding {extra1}, a pinch of something warming fills the gap.",
]

EN_COLLECTION_FILLERS = [
    "Every recipe in this collection has been cooked by at least three people on our team.",
    "Most of them can be made ahead and reheated without losing anything.",
    "We update the list each season as new favourites earn their place.",
    "Shopping lists for each recipe are printable from the recipe page.",
    "If you only try one, start with the one at the top of the list.",
    "Readers' notes and swaps are collected under each recipe.",
    "None of these needs special equipment beyond a good pan and a sharp knife.",
    "Timings assume an ordinary domestic oven and hob.",
    "Several of these freeze well, which makes batch cooking easy.",
    "Tell us which {noun} you would add to the list next.",
    "Leftovers from most of these make an excellent packed lunch.",
]


def _en_recipe_ctx(d: tuple[Any, ...], site: Site) -> dict[str, Any]:
    name, group, mains, extras, diet, minutes, temp, serves, _look, _q = d
    return {
        "name": name,
        "lname": name.lower(),
        "main0": mains[0],
        "main1": mains[1],
        "extra0": extras[0],
        "extra1": extras[1],
        "extra2": extras[2],
        "minutes": minutes,
        "temp": temp,
        "serves": serves,
        "noun": EN_NOUN[group],
        "brand": site.brand,
        "diet": ", ".join(diet),
        "n": ["three", "four", "five", "six"],
        "adj": ["comforting", "bright", "hearty", "fragrant", "simple", "thrifty", "colourful"],
    }


def recipes_en(rng: random.Random) -> list[PageSpec]:
    pages: list[PageSpec] = []
    on_site: dict[str, list[tuple[str, str]]] = {COPPERPOT.name: [], SALT_EMBER.name: []}
    for d in EN_DISHES:
        name, group, mains, extras, diet, minutes, temp, serves, look, q = d
        slug = slugify(name)
        entity = f"recipes/{slug}"
        primary, other = (COPPERPOT, SALT_EMBER) if rng.random() < 0.55 else (SALT_EMBER, COPPERPOT)
        sites = [primary] + ([other] if rng.random() < 0.45 else [])
        attrs = {
            "name": name,
            "group": group,
            "diet": list(diet),
            "minutes": minutes,
            "temp": temp,
            "q": list(q),
            "mains": list(mains),
        }
        for site in sites:
            ctx = _en_recipe_ctx(d, site)
            method = EN_SALAD_OVEN if (group == "salad" and temp) else EN_METHOD[group]
            facts = ["For {serves} servings you will need {main0}, {main1}, {extra0}, {extra1} and {extra2}.", method]
            text = compose(
                rng,
                "en",
                [rng.choice(EN_LEADS), "Dietary notes: {diet}."],
                facts,
                EN_RECIPE_FILLERS,
                ctx,
                110,
                280,
                tail=["Recipe tested in the {brand} kitchen."],
            )
            path = f"recipes/{slug}" if site is COPPERPOT else f"cook/{group}/{slug}"
            title = (
                rng.choice(
                    [
                        f"{name}",
                        f"{name}: a {rng.choice(['weeknight', 'weekend', 'make-ahead'])} {EN_NOUN[group]}",
                        f"How to make {name.lower()}",
                    ]
                )
                + f" | {site.brand}"
            )
            pages.append(
                PageSpec(
                    url=site.url(path),
                    title=title,
                    text=text,
                    language="en",
                    published=rand_date(rng, "2022-03-01", "2026-10-20") if rng.random() < 0.85 else None,
                    topic="recipes",
                    entity=entity,
                    aspect="main",
                    group=f"recipes/{group}",
                    lookalike=f"recipes/{look}" if look else None,
                    attrs=dict(attrs, brand=site.brand),
                    mirror_hint=rng.random() < 0.3,
                    variant_hint="utm" if rng.random() < 0.15 else None,
                )
            )
            on_site[site.name].append((entity, group))
        if rng.random() < 0.6:
            ctx = _en_recipe_ctx(d, primary)
            ctx["months"] = rng.choice([2, 3])
            text = compose(
                rng,
                "en",
                ["These notes go with our {lname} recipe and answer the questions readers ask most."],
                [
                    "You can freeze the {noun} for up to {months} months.",
                    "For a lighter version, use less {extra2} and more {main0}.",
                ],
                EN_TIPS_FILLERS + EN_RECIPE_FILLERS[:8],
                ctx,
                90,
                220,
            )
            path = f"recipes/{slug}/tips" if primary is COPPERPOT else f"cook/{group}/{slug}-notes"
            pages.append(
                PageSpec(
                    url=primary.url(path),
                    title=f"{name}: storage, swaps and make-ahead tips | {primary.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2022-06-01", "2026-10-20"),
                    topic="recipes",
                    entity=entity,
                    aspect="tips",
                    group=f"recipes/{group}",
                    lookalike=f"recipes/{look}" if look else None,
                    attrs=dict(attrs, brand=primary.brand),
                )
            )
    names = {f"recipes/{slugify(d[0])}": d[0] for d in EN_DISHES}
    for site in (COPPERPOT, SALT_EMBER):
        groups = sorted({g for _e, g in on_site[site.name]})
        for group in groups:
            ents = sorted({e for e, g in on_site[site.name] if g == group})
            if len(ents) < 2:
                continue
            listed = [names[e].lower() for e in ents]
            ctx = {
                "group": EN_GROUP_TITLE[group].lower(),
                "list": en_list(listed),
                "brand": site.brand,
                "noun": EN_NOUN[group],
            }
            text = compose(
                rng,
                "en",
                ["A round-up of the {group} we keep coming back to at {brand}."],
                [
                    "Our current favourites are {list}.",
                    "Each one links to a full recipe with quantities, timings and dietary notes.",
                ],
                EN_COLLECTION_FILLERS,
                ctx,
                90,
                200,
            )
            pages.append(
                PageSpec(
                    url=site.url(f"collections/{slugify(group)}"),
                    title=f"{EN_GROUP_TITLE[group]} we cook on repeat | {site.brand}",
                    text=text,
                    language="en",
                    published=None,
                    topic="recipes",
                    entity=f"recipes/collection/{site.name}/{group}",
                    aspect="overview",
                    group=f"recipes/{group}",
                    mentions=tuple(ents),
                    attrs={"brand": site.brand},
                )
            )
    return pages


# =========================================================================== recipes (es)

COCINA = Site("www.cocina-lumbre.example", "Cocina Lumbre", "es", "recipes")

# nombre, grupo, (principal0, principal1), (extra0, extra1, extra2), dieta, minutos, temp, raciones, parecido, consulta
ES_DISHES = [
    (
        "Lentejas estofadas con pimentón ahumado",
        "guiso",
        ("lentejas pardinas", "pimentón ahumado"),
        ("zanahoria", "laurel", "comino"),
        "vegana",
        40,
        None,
        4,
        "lentejas",
        ("lentejas", "pimentón ahumado"),
    ),
    (
        "Lentejas rojas al curry con leche de coco",
        "guiso",
        ("lentejas rojas", "leche de coco"),
        ("jengibre", "cúrcuma", "espinacas"),
        "vegana",
        25,
        None,
        4,
        "lentejas",
        ("lentejas rojas", "curry"),
    ),
    (
        "Crema de calabaza asada con comino",
        "crema",
        ("calabaza", "comino"),
        ("puerro", "nuez moscada", "caldo de verduras"),
        "vegetariana",
        35,
        200,
        4,
        None,
        ("crema de calabaza", "comino"),
    ),
    (
        "Tortilla de patata y puerro",
        "huevos",
        ("patatas", "puerro"),
        ("huevos", "aceite de oliva", "sal"),
        "vegetariana",
        30,
        None,
        4,
        None,
        ("tortilla de patata", "puerro"),
    ),
    (
        "Arroz meloso de setas y romero",
        "arroz",
        ("arroz bomba", "setas"),
        ("romero", "ajo", "caldo de verduras"),
        "vegana",
        22,
        None,
        4,
        "arroz",
        ("arroz meloso", "setas"),
    ),
    (
        "Arroz al horno con garbanzos",
        "arroz",
        ("arroz redondo", "garbanzos"),
        ("tomate", "pimentón", "ajo"),
        "vegana",
        45,
        190,
        6,
        "arroz",
        ("arroz al horno", "garbanzos"),
    ),
    (
        "Bizcocho de naranja y aceite de oliva",
        "postre",
        ("naranjas", "aceite de oliva"),
        ("harina", "azúcar", "huevos"),
        "vegetariana",
        40,
        180,
        8,
        "bizcocho",
        ("bizcocho de naranja", "aceite"),
    ),
    (
        "Bizcocho de limón y yogur",
        "postre",
        ("limones", "yogur natural"),
        ("harina", "azúcar", "huevos"),
        "vegetariana",
        35,
        175,
        8,
        "bizcocho",
        ("bizcocho de limón", "yogur"),
    ),
    (
        "Ensalada de garbanzos e hinojo",
        "ensalada",
        ("garbanzos", "hinojo"),
        ("naranja", "menta", "aceitunas"),
        "vegana",
        15,
        None,
        2,
        None,
        ("ensalada de garbanzos", "hinojo"),
    ),
    (
        "Gazpacho de sandía y tomate",
        "sopa fría",
        ("sandía", "tomates maduros"),
        ("pepino", "pimiento verde", "vinagre de jerez"),
        "vegana",
        15,
        None,
        4,
        None,
        ("gazpacho de sandía", "tomate"),
    ),
    (
        "Pisto de calabacín con huevo",
        "verduras",
        ("calabacín", "pimiento rojo"),
        ("cebolla", "tomate triturado", "huevos"),
        "vegetariana",
        45,
        None,
        4,
        None,
        ("pisto", "calabacín"),
    ),
]

ES_METHOD_STOVE = "Deja cocer a fuego lento durante {minutes} minutos, removiendo de vez en cuando."
ES_METHOD_OVEN = "Hornea a {temp} °C durante {minutes} minutos, hasta que esté dorado."
ES_METHOD_COLD = "Se prepara en unos {minutes} minutos y se sirve bien frío."
ES_LEADS = [
    "{name}: una receta {adj} con {main0} y {main1} como protagonistas.",
    "Esta receta de {lname} es {adj} y se apoya en {main0} y {main1}.",
    "Si tienes {main0} y {main1} en la despensa, ya tienes media receta hecha.",
]
ES_FILLERS = [
    "Un recipiente de buena calidad ayuda a que nada se pegue.",
    "Prueba al final y ajusta el punto con un poco más de {extra1} si hace falta.",
    "Las sobras aguantan tres días en la nevera, bien tapadas.",
    "Si cocinas para muchas personas, basta con duplicar las cantidades.",
    "Hemos probado esta receta {n} veces hasta dar con el punto de {main1}.",
    "Sírvelo con pan tostado, un chorrito de aceite o una ensalada verde.",
    "Puedes sustituir {extra0} por otro ingrediente parecido sin problema.",
    "Ten preparados {extra0} y {extra2} antes de empezar.",
    "Un poco de cítrico al final le da mucha alegría al plato.",
    "A los niños suele encantarles esta receta.",
    "Compra {main0} de buena calidad, porque marca la diferencia.",
    "Es una receta {adj} que funciona igual entre semana que en domingo.",
    "Los tiempos son orientativos: cada fuego y cada horno es distinto.",
    "Deja reposar cinco minutos antes de servir para que se asienten los sabores.",
    "Al día siguiente suele estar todavía más rico.",
    "Corta todo en trozos de tamaño parecido para que se cocine por igual.",
    "Guarda las raciones en recipientes pequeños si quieres congelarlas.",
    "Un buen aceite de oliva virgen extra aporta mucho sabor.",
]


def recipes_es(rng: random.Random) -> list[PageSpec]:
    pages = []
    for d in ES_DISHES:
        name, group, mains, extras, diet, minutes, temp, serves, look, q = d
        slug = slugify(name)
        ctx = {
            "name": name,
            "lname": name.lower(),
            "main0": mains[0],
            "main1": mains[1],
            "extra0": extras[0],
            "extra1": extras[1],
            "extra2": extras[2],
            "minutes": minutes,
            "temp": temp,
            "serves": serves,
            "diet": diet,
            "brand": COCINA.brand,
            "n": ["tres", "cuatro", "cinco"],
            "adj": ["sencilla", "reconfortante", "económica", "aromática", "de siempre"],
        }
        method = ES_METHOD_OVEN if temp else (ES_METHOD_COLD if group in ("ensalada", "sopa fría") else ES_METHOD_STOVE)
        facts = ["Para {serves} raciones necesitas {main0}, {main1}, {extra0}, {extra1} y {extra2}.", method]
        text = compose(
            rng,
            "es",
            [rng.choice(ES_LEADS), "Apta para dieta {diet}."],
            facts,
            ES_FILLERS,
            ctx,
            100,
            260,
            tail=["Receta probada en la cocina de {brand}."],
        )
        pages.append(
            PageSpec(
                url=COCINA.url(f"recetas/{slug}"),
                title=f"{name} | {COCINA.brand}",
                text=text,
                language="es",
                published=rand_date(rng, "2022-01-10", "2026-10-01"),
                topic="recipes",
                entity=f"recipes/es/{slug}",
                aspect="main",
                group=f"recipes/es/{group}",
                lookalike=f"recipes/es/{look}" if look else None,
                attrs={"name": name, "minutes": minutes, "temp": temp, "q": list(q), "brand": COCINA.brand},
                mirror_hint=rng.random() < 0.25,
            )
        )
        if rng.random() < 0.35:
            text = compose(
                rng,
                "es",
                ["Trucos para que tu {lname} salga perfecto."],
                ["Se puede congelar hasta dos meses en raciones individuales."],
                ES_FILLERS,
                ctx,
                90,
                200,
            )
            pages.append(
                PageSpec(
                    url=COCINA.url(f"trucos/{slug}"),
                    title=f"Trucos y variaciones: {name.lower()} | {COCINA.brand}",
                    text=text,
                    language="es",
                    published=rand_date(rng, "2022-01-10", "2026-10-01"),
                    topic="recipes",
                    entity=f"recipes/es/{slug}",
                    aspect="tips",
                    group=f"recipes/es/{group}",
                    lookalike=f"recipes/es/{look}" if look else None,
                    attrs={"name": name, "brand": COCINA.brand},
                )
            )
    return pages


# =========================================================================== recipes (zh)

XIANGWEI = Site("www.xiangwei-chufang.example", "香味厨房", "zh", "recipes")

# 名称, 分类, (主料0, 主料1), (配料…), 分钟, 做法动词, 相似, 查询词
ZH_DISHES = [
    ("冬瓜排骨汤", "汤", ("冬瓜", "排骨"), ("姜片", "葱段", "枸杞"), 60, "小火慢炖", "排骨汤", ("冬瓜排骨汤", "做法")),
    (
        "玉米排骨汤",
        "汤",
        ("甜玉米", "排骨"),
        ("胡萝卜", "姜片", "红枣"),
        50,
        "小火慢炖",
        "排骨汤",
        ("玉米排骨汤", "做法"),
    ),
    ("香菇鸡肉粥", "粥", ("香菇", "鸡胸肉"), ("大米", "姜丝", "葱花"), 40, "小火熬煮", None, ("香菇鸡肉粥", "怎么做")),
    ("葱油拌面", "面食", ("细面", "小葱"), ("生抽", "老抽", "白糖"), 15, "煮制", None, ("葱油拌面", "做法")),
    ("蒜蓉西兰花", "素菜", ("西兰花", "蒜蓉"), ("蚝油", "盐", "清水"), 10, "大火快炒", None, ("蒜蓉西兰花", "做法")),
    (
        "紫薯山药糕",
        "点心",
        ("紫薯", "山药"),
        ("糯米粉", "白糖", "牛奶"),
        25,
        "上锅蒸",
        "糕点",
        ("紫薯山药糕", "蒸多久"),
    ),
    ("红枣山药糕", "点心", ("红枣", "山药"), ("糯米粉", "红糖", "牛奶"), 30, "上锅蒸", "糕点", ("红枣山药糕", "做法")),
    ("番茄炖牛腩", "炖菜", ("牛腩", "番茄"), ("洋葱", "八角", "土豆"), 90, "小火慢炖", None, ("番茄牛腩", "炖多久")),
    ("香辣豆腐煲", "炖菜", ("老豆腐", "豆瓣酱"), ("肉末", "青蒜", "辣椒"), 20, "中火焖煮", None, ("豆腐煲", "香辣")),
    ("陈皮红豆沙", "甜品", ("红豆", "陈皮"), ("冰糖", "清水", "糖桂花"), 80, "小火熬煮", None, ("红豆沙", "陈皮")),
    ("清蒸鲈鱼", "鱼", ("鲈鱼", "葱丝"), ("蒸鱼豉油", "姜丝", "料酒"), 8, "大火清蒸", None, ("清蒸鲈鱼", "蒸几分钟")),
]
ZH_LEADS = [
    "{name}是一道{adj}的家常菜，主料是{main0}和{main1}。",
    "这道{name}做法简单，味道{adj}，用到{main0}和{main1}。",
    "今天分享{name}的做法，{main0}搭配{main1}，非常{adj}。",
]
ZH_FILLERS = [
    "{main0}要提前处理干净，这样成品口感更好。",
    "火候很重要，中途不要频繁揭盖。",
    "出锅前尝一下味道，再根据口味加盐调整。",
    "吃不完的可以放进冰箱冷藏，两天内吃完。",
    "家里没有{extra0}也没关系，可以用别的配料代替。",
    "{extra1}的用量可以按照自己的口味增减。",
    "这道菜老人和孩子都很喜欢，适合全家一起吃。",
    "建议选择新鲜的{main1}，味道会更加鲜美。",
    "准备工作做好以后，整个过程并不复杂。",
    "如果喜欢清淡一些，可以少放一点调料。",
    "我们在自家厨房反复试做了{n}次，才确定这个比例。",
    "搭配一碗米饭或者馒头，就是一顿简单的晚餐。",
    "锅具最好选用厚底的，受热更加均匀。",
    "每家的灶火大小不同，时间仅供参考。",
    "做好以后静置几分钟，味道会更融合。",
    "冬天吃暖身，夏天吃也很开胃。",
]


def recipes_zh(rng: random.Random) -> list[PageSpec]:
    pages = []
    for d in ZH_DISHES:
        name, group, mains, extras, minutes, verb, look, q = d
        slug = f"r{ZH_DISHES.index(d) + 101}"
        ctx = {
            "name": name,
            "main0": mains[0],
            "main1": mains[1],
            "extra0": extras[0],
            "extra1": extras[1],
            "extra2": extras[2],
            "minutes": minutes,
            "verb": verb,
            "brand": XIANGWEI.brand,
            "adj": ["鲜美", "清淡", "香浓", "下饭", "暖心"],
            "n": ["三", "四", "五"],
        }
        facts = [
            "准备食材：{main0}、{main1}、{extra0}、{extra1}和{extra2}。",
            "{name}需要{verb}{minutes}分钟，时间到了再出锅。",
        ]
        text = compose(
            rng, "zh", [rng.choice(ZH_LEADS)], facts, ZH_FILLERS, ctx, 90, 220, tail=["本菜谱由{brand}编辑部实际试做。"]
        )
        pages.append(
            PageSpec(
                url=XIANGWEI.url(f"caipu/{slug}.html"),
                title=f"{name}的家常做法 - {XIANGWEI.brand}",
                text=text,
                language="zh",
                published=rand_date(rng, "2022-05-01", "2026-09-30"),
                topic="recipes",
                entity=f"recipes/zh/{slug}",
                aspect="main",
                group=f"recipes/zh/{group}",
                lookalike=f"recipes/zh/{look}" if look else None,
                attrs={"name": name, "minutes": minutes, "verb": verb, "q": list(q), "brand": XIANGWEI.brand},
                mirror_hint=rng.random() < 0.25,
            )
        )
        if rng.random() < 0.3:
            text = compose(
                rng,
                "zh",
                ["关于{name}，很多读者问了保存和加热的问题，这里统一回答。"],
                ["做好的{name}冷藏可以保存两天，吃之前彻底加热。"],
                ZH_FILLERS,
                ctx,
                80,
                180,
            )
            pages.append(
                PageSpec(
                    url=XIANGWEI.url(f"jiqiao/{slug}.html"),
                    title=f"{name}小窍门 - {XIANGWEI.brand}",
                    text=text,
                    language="zh",
                    published=rand_date(rng, "2022-05-01", "2026-09-30"),
                    topic="recipes",
                    entity=f"recipes/zh/{slug}",
                    aspect="tips",
                    group=f"recipes/zh/{group}",
                    lookalike=f"recipes/zh/{look}" if look else None,
                    attrs={"name": name, "brand": XIANGWEI.brand},
                )
            )
    return pages


# =========================================================================== gardening (en)

MEADOWFIELD = Site("www.meadowfield-gardening.example", "Meadowfield Gardening", "en", "gardening")
ALLOTMENT = Site("www.allotment-notes.example.org", "Allotment Notes", "en", "gardening")

# plant, group, sow month, spacing cm, depth cm, weeks to harvest/flower, position, (pest0, pest1), yellowing cause
EN_PLANTS = [
    ("tomatoes", "vegetables", "March", 45, 1, 16, "full sun", ("blight", "whitefly"), "magnesium shortage"),
    ("runner beans", "vegetables", "May", 20, 5, 12, "full sun", ("blackfly", "slugs"), "waterlogged roots"),
    ("garlic", "vegetables", "October", 15, 5, 36, "full sun", ("rust", "onion fly"), "natural ripening"),
    ("courgettes", "vegetables", "April", 90, 2, 10, "full sun", ("powdery mildew", "slugs"), "powdery mildew"),
    ("leeks", "vegetables", "March", 15, 1, 24, "open ground", ("leek moth", "rust"), "rust"),
    ("potatoes", "vegetables", "April", 30, 12, 14, "open ground", ("scab", "blight"), "early blight"),
    ("spinach", "vegetables", "March", 10, 2, 6, "partial shade", ("leaf miner", "downy mildew"), "nitrogen shortage"),
    ("lavender", "herbs", "May", 40, 1, 20, "full sun", ("root rot", "rosemary beetle"), "root rot"),
    ("rosemary", "herbs", "April", 60, 1, 30, "full sun", ("rosemary beetle", "root rot"), "cold wet soil"),
    ("strawberries", "fruit", "August", 35, 1, 40, "full sun", ("grey mould", "vine weevil"), "vine weevil grubs"),
    ("rhubarb", "fruit", "November", 90, 3, 52, "open ground", ("crown rot", "slugs"), "crown rot"),
    ("raspberries", "fruit", "November", 45, 8, 30, "full sun", ("raspberry beetle", "cane blight"), "lime-rich soil"),
    ("blueberries", "fruit", "November", 120, 10, 60, "acidic soil", ("birds", "vine weevil"), "alkaline soil"),
    ("sweet peas", "flowers", "February", 20, 2, 14, "full sun", ("aphids", "powdery mildew"), "root damage"),
    ("dahlias", "flowers", "May", 60, 10, 14, "full sun", ("earwigs", "slugs"), "overwatering"),
    ("sunflowers", "flowers", "April", 45, 3, 12, "full sun", ("slugs", "aphids"), "nitrogen shortage"),
]
# cultivar, plant, look-alike key, habit, spacing
EN_CULTIVARS = [
    ("Amber Lantern", "tomatoes", "amber", "a tall cordon variety", 45),
    ("Amber Pennant", "tomatoes", "amber", "a compact bush variety", 60),
    ("Wexcombe White", "garlic", "wexcombe", "a softneck variety that stores well", 15),
    ("Wexcombe Violet", "garlic", "wexcombe", "a hardneck variety with purple skins", 18),
    ("Scarlet Herald", "runner beans", "scarlet", "a heavy-cropping climbing variety", 20),
    ("Scarlet Harbinger", "runner beans", "scarlet", "a dwarf variety for pots", 30),
    ("Morning Hush", "sweet peas", "morning", "a pale lilac, strongly scented variety", 20),
    ("Morning Hymn", "sweet peas", "morning", "a deep crimson, lightly scented variety", 25),
]
EN_GARDEN_FILLERS = [
    "Water deeply once or twice a week rather than a little every day.",
    "A mulch of garden compost keeps the soil moist and the weeds down.",
    "Check plants every few days in warm weather, when problems spread fastest.",
    "Label each row with the sowing date so you can track progress.",
    "Feed with a balanced liquid fertiliser once growth is under way.",
    "Hoe between rows on dry days so weed seedlings wither quickly.",
    "Cold, wet soil is the most common reason for poor germination.",
    "Harden off young plants for a week before planting them out.",
    "Crop rotation stops soil problems building up in one bed.",
    "A simple net or fleece protects young growth from birds and late frost.",
    "Keep a notebook of what worked each year; it becomes the best guide you own.",
    "Gardeners on heavy clay should add plenty of organic matter first.",
    "Raised beds warm up earlier in spring and drain better after rain.",
    "Containers dry out quickly, so group pots together in summer.",
    "Remove damaged leaves promptly and put them in the green waste, not the compost.",
    "Encourage ladybirds and hoverflies, which eat many common pests.",
    "{plant_cap} do best in {position} with shelter from strong wind.",
    "Most problems with {plant} start when plants are stressed by drought or crowding.",
    "Neighbouring plots often share the same pests, so a chat over the fence helps.",
]


def _garden_ctx(p: tuple[Any, ...]) -> dict[str, Any]:
    plant, group, month, spacing, depth, weeks, position, pests, cause = p
    return {
        "plant": plant,
        "plant_cap": plant[0].upper() + plant[1:],
        "month": month,
        "spacing": spacing,
        "depth": depth,
        "weeks": weeks,
        "position": position,
        "pest0": pests[0],
        "pest1": pests[1],
        "cause": cause,
        "brand": MEADOWFIELD.brand,
    }


def gardening_en(rng: random.Random) -> list[PageSpec]:
    pages = []
    for p in EN_PLANTS:
        plant, group, month, spacing, depth, weeks, position, pests, cause = p
        slug = slugify(plant)
        ctx = _garden_ctx(p)
        entity = f"gardening/{slug}"
        attrs = {"name": plant, "month": month, "spacing": spacing, "depth": depth, "weeks": weeks}
        facts = [
            "Sow or plant {plant} in {month}, about {depth} cm deep.",
            "Space {plant} {spacing} cm apart so air can move between the plants.",
            "Expect the first harvest or flowers about {weeks} weeks after planting.",
        ]
        text = compose(
            rng,
            "en",
            ["This guide covers growing {plant} from planting to harvest, step by step."],
            facts,
            EN_GARDEN_FILLERS,
            ctx,
            120,
            300,
            tail=["Written by the {brand} team."],
        )
        pages.append(
            PageSpec(
                url=MEADOWFIELD.url(f"grow/{slug}"),
                title=f"How to grow {plant}: sowing, spacing and care | {MEADOWFIELD.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2023-01-10", "2026-10-15"),
                topic="gardening",
                entity=entity,
                aspect="main",
                group=f"gardening/{group}",
                attrs=attrs,
                mirror_hint=rng.random() < 0.25,
                variant_hint="slash" if rng.random() < 0.12 else None,
            )
        )
        if EN_PLANTS.index(p) % 5 != 4:
            facts = [
                "Yellowing leaves on {plant} usually point to {cause}.",
                "The two problems we see most on {plant} are {pest0} and {pest1}.",
                "Act early: {pest0} is far easier to control before it spreads.",
            ]
            text = compose(
                rng,
                "en",
                ["Something wrong with your {plant}? Here are the usual suspects."],
                facts,
                EN_GARDEN_FILLERS,
                ctx,
                110,
                260,
            )
            pages.append(
                PageSpec(
                    url=MEADOWFIELD.url(f"problems/{slug}"),
                    title=f"{ctx['plant_cap']} problems: {pests[0]}, {pests[1]} and yellow leaves | {MEADOWFIELD.brand}",
                    text=text,
                    language="en",
                    published=rand_date(rng, "2023-01-10", "2026-10-15"),
                    topic="gardening",
                    entity=entity,
                    aspect="pests",
                    group=f"gardening/{group}",
                    attrs=dict(attrs, cause=cause),
                )
            )
    plants = {p[0]: p for p in EN_PLANTS}
    for cv, plant, key, habit, spacing in EN_CULTIVARS:
        p = plants[plant]
        ctx = _garden_ctx(p)
        ctx.update(cv=cv, habit=habit, spacing=spacing)
        facts = [
            "{cv} is {habit}.",
            "Plant {cv} {spacing} cm apart in {month}.",
            "Like other {plant}, {cv} needs {position}.",
        ]
        text = compose(
            rng,
            "en",
            ["Our trial notes on {cv}, one of the {plant} we grew this season."],
            facts,
            EN_GARDEN_FILLERS,
            ctx,
            100,
            240,
        )
        pages.append(
            PageSpec(
                url=MEADOWFIELD.url(f"varieties/{slugify(cv)}"),
                title=f"{plant.capitalize()} '{cv}': variety profile | {MEADOWFIELD.brand}",
                text=text,
                language="en",
                published=rand_date(rng, "2024-01-10", "2026-10-15"),
                topic="gardening",
                entity=f"gardening/variety/{slugify(cv)}",
                aspect="main",
                group=f"gardening/{p[1]}",
                lookalike=f"gardening/variety/{key}",
                attrs={"name": cv, "plant": plant, "spacing": spacing},
            )
        )
    months = ["February", "March", "April", "May", "August", "October", "November"]
    for month in months:
        due = [p for p in EN_PLANTS if p[2] == month]
        if not due:
            continue
        listed = [p[0] for p in due]
        ctx = {
            "month": month,
            "list": en_list(listed),
            "brand": MEADOWFIELD.brand,
            "plant": "young plants",
            "plant_cap": "Young plants",
            "position": "a sheltered spot",
        }
        text = compose(
            rng,
            "en",
            ["Jobs for the garden in {month}, in the order we tackle them."],
            ["This month is the time to sow or plant {list}."],
            EN_GARDEN_FILLERS,
            ctx,
            100,
            220,
        )
        pages.append(
            PageSpec(
                url=MEADOWFIELD.url(f"calendar/{month.lower()}"),
                title=f"What to do in the garden in {month} | {MEADOWFIELD.brand}",
                text=text,
                language="en",
                published=None,
                topic="gardening",
                entity=f"gardening/calendar/{month.lower()}",
                aspect="overview",
                group="gardening/calendar",
                mentions=tuple(f"gardening/{slugify(x)}" for x in listed),
            )
        )
    # Allotment Notes: a diary blog mentioning a few plants per post.
    for week in range(1, 13):
        sample = rng.sample(EN_PLANTS, 3)
        ctx = {
            "a": sample[0][0],
            "b": sample[1][0],
            "c": sample[2][0],
            "brand": ALLOTMENT.brand,
            "pest": sample[0][7][0],
            "weather": ["wet", "windy", "mild", "bright", "frosty"],
            "plant": sample[0][0],
            "plant_cap": sample[0][0].capitalize(),
            "position": "the sunniest bed",
        }
        text = compose(
            rng,
            "en",
            ["A {weather} week on the plot, mostly spent with the {a} and the {b}."],
            [
                "The {c} are coming along slowly but steadily.",
                "I spotted the first signs of {pest} and dealt with it straight away.",
            ],
            EN_GARDEN_FILLERS,
            ctx,
            100,
            240,
            tail=["More next week from {brand}."],
        )
        pages.append(
            PageSpec(
                url=ALLOTMENT.url(f"diary/week-{week:02d}"),
                title=f"Plot diary, week {week}: {sample[0][0]}, {sample[1][0]} and more",
                text=text,
                language="en",
                published=rand_date(rng, "2025-01-05", "2026-10-30"),
                topic="gardening",
                entity=f"gardening/diary/{week}",
                aspect="diary",
                group="gardening/diary",
                mentions=(),
                attrs={"brand": ALLOTMENT.brand},
            )
        )
    return pages


# =========================================================================== gardening (de)

GARTENKREIS = Site("www.gartenkreis.example", "Gartenkreis", "de", "gardening")

# Pflanze, Gruppe, Monat, Abstand cm, Tiefe cm, Wochen, (Schädling0, Schädling1)
DE_PLANTS = [
    ("Tomaten", "gemuese", "März", 50, 1, 16, ("Kraut- und Braunfäule", "Weiße Fliege")),
    ("Knoblauch", "gemuese", "Oktober", 15, 5, 36, ("Rost", "Zwiebelfliege")),
    ("Zucchini", "gemuese", "Mai", 100, 3, 9, ("Mehltau", "Schnecken")),
    ("Kartoffeln", "gemuese", "April", 35, 10, 14, ("Kartoffelkäfer", "Schorf")),
    ("Porree", "gemuese", "März", 15, 1, 22, ("Lauchmotte", "Rost")),
    ("Spinat", "gemuese", "August", 10, 2, 7, ("Blattläuse", "Falscher Mehltau")),
    ("Stangenbohnen", "gemuese", "Mai", 15, 3, 11, ("Schwarze Bohnenlaus", "Schnecken")),
    ("Erdbeeren", "obst", "August", 30, 1, 40, ("Grauschimmel", "Dickmaulrüssler")),
    ("Rhabarber", "obst", "Oktober", 100, 4, 52, ("Kronenfäule", "Schnecken")),
    ("Lavendel", "kraeuter", "Mai", 40, 1, 20, ("Wurzelfäule", "Zikaden")),
    ("Dahlien", "blumen", "Mai", 60, 10, 13, ("Ohrwürmer", "Schnecken")),
    ("Sonnenblumen", "blumen", "April", 50, 3, 12, ("Schnecken", "Blattläuse")),
]
DE_FILLERS = [
    "Gießen Sie lieber selten und durchdringend als täglich ein wenig.",
    "Eine Mulchschicht aus Rasenschnitt hält den Boden feucht.",
    "Bei warmem Wetter lohnt sich alle paar Tage ein Kontrollgang.",
    "Schreiben Sie das Aussaatdatum auf ein Etikett am Beet.",
    "Reifer Kompost im Frühjahr versorgt die Pflanzen mit Nährstoffen.",
    "Hacken Sie an trockenen Tagen, dann vertrocknet das Unkraut schneller.",
    "Kalter, nasser Boden ist der häufigste Grund für schlechte Keimung.",
    "Jungpflanzen sollten vor dem Auspflanzen eine Woche abgehärtet werden.",
    "Ein Fruchtwechsel verhindert, dass sich Krankheiten im Boden anreichern.",
    "Ein Vlies schützt junge Triebe vor Spätfrost und Vögeln.",
    "Hochbeete erwärmen sich im Frühjahr schneller als ebene Beete.",
    "Kübel trocknen im Sommer rasch aus und brauchen mehr Wasser.",
    "Marienkäfer und Schwebfliegen sind die besten Helfer gegen Läuse.",
    "Für {pflanze} eignet sich ein sonniger, windgeschützter Standort.",
    "Lehmige Böden werden mit Sand und Kompost lockerer.",
    "Ein Gartentagebuch hilft, im nächsten Jahr Fehler zu vermeiden.",
    "Kranke Blätter gehören in den Restmüll, nicht auf den Kompost.",
]


def gardening_de(rng: random.Random) -> list[PageSpec]:
    pages = []
    for p in DE_PLANTS:
        name, group, month, spacing, depth, weeks, pests = p
        slug = slugify(name)
        ctx = {
            "pflanze": name,
            "monat": month,
            "abstand": spacing,
            "tiefe": depth,
            "wochen": weeks,
            "s0": pests[0],
            "s1": pests[1],
            "brand": GARTENKREIS.brand,
        }
        attrs = {"name": name, "month": month, "spacing": spacing, "depth": depth}
        facts = [
            "Die Aussaat oder Pflanzung von {pflanze} erfolgt ab {monat}.",
            "Der Pflanzabstand für {pflanze} beträgt {abstand} cm.",
            "Die Pflanztiefe liegt bei etwa {tiefe} cm.",
            "Mit der ersten Ernte oder Blüte ist nach rund {wochen} Wochen zu rechnen.",
        ]
        text = compose(
            rng,
            "de",
            ["{pflanze} pflanzen: Hier erfahren Sie alles über Aussaat, Abstand und Pflege."],
            facts,
            DE_FILLERS,
            ctx,
            110,
            280,
            tail=["Ein Ratgeber von {brand}."],
        )
        pages.append(
            PageSpec(
                url=GARTENKREIS.url(f"ratgeber/{slug}"),
                title=f"{name} anbauen: Abstand, Tiefe und Pflege | {GARTENKREIS.brand}",
                text=text,
                language="de",
                published=rand_date(rng, "2023-02-01", "2026-10-01"),
                topic="gardening",
                entity=f"gardening/de/{slug}",
                aspect="main",
                group=f"gardening/de/{group}",
                attrs=attrs,
                mirror_hint=rng.random() < 0.2,
            )
        )
        if rng.random() < 0.5:
            text = compose(
                rng,
                "de",
                ["Welche Schädlinge und Krankheiten treten bei {pflanze} auf?"],
                [
                    "Am häufigsten sind {s0} und {s1}.",
                    "Gelbe Blätter bei {pflanze} deuten oft auf Staunässe oder Nährstoffmangel hin.",
                ],
                DE_FILLERS,
                ctx,
                100,
                240,
            )
            pages.append(
                PageSpec(
                    url=GARTENKREIS.url(f"schaedlinge/{slug}"),
                    title=f"{name}: Schädlinge und Krankheiten erkennen | {GARTENKREIS.brand}",
                    text=text,
                    language="de",
                    published=rand_date(rng, "2023-02-01", "2026-10-01"),
                    topic="gardening",
                    entity=f"gardening/de/{slug}",
                    aspect="pests",
                    group=f"gardening/de/{group}",
                    attrs=attrs,
                )
            )
    for month in ("März", "April", "Mai", "August", "Oktober"):
        due = [p[0] for p in DE_PLANTS if p[2] == month]
        ctx = {"monat": month, "liste": ", ".join(due), "pflanze": "Jungpflanzen", "brand": GARTENKREIS.brand}
        text = compose(
            rng,
            "de",
            ["Was im {monat} im Garten zu tun ist, auf einen Blick."],
            ["Im {monat} kommen {liste} in die Erde."],
            DE_FILLERS,
            ctx,
            90,
            200,
        )
        pages.append(
            PageSpec(
                url=GARTENKREIS.url(f"gartenkalender/{slugify(month)}"),
                title=f"Gartenkalender {month} | {GARTENKREIS.brand}",
                text=text,
                language="de",
                published=None,
                topic="gardening",
                entity=f"gardening/de/kalender/{slugify(month)}",
                aspect="overview",
                group="gardening/de/kalender",
                mentions=tuple(f"gardening/de/{slugify(x)}" for x in due),
            )
        )
    return pages


GROUP = SiteGroup(
    sites=(COPPERPOT, SALT_EMBER, COCINA, XIANGWEI, MEADOWFIELD, ALLOTMENT, GARTENKREIS),
    builders={
        "recipes-en": recipes_en,
        "recipes-es": recipes_es,
        "recipes-zh": recipes_zh,
        "gardening-en": gardening_en,
        "gardening-de": gardening_de,
    },
)
